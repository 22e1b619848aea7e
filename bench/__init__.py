"""Measurements of the bot's hot paths (not tests: they report numbers and always exit 0)."""
