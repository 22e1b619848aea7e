"""Blockhouse: tabletop block games on Discord. Run ``python bot.py`` (see README.md).

The bot itself is :mod:`cogs.client`. This file imports nothing unless it is run: a bots' worker process (spawned)
imports the main module of the process that starts it, and it should not import discord.py and the table service
to think (``tests/test_repository.py`` checks that it doesn't).
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    from cogs.client import main

    sys.exit(main())
