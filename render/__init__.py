"""Board images for the games: pure functions from a game's view to PNG bytes.

Each game's module has ``render(view, names) -> bytes``; the catalogue (:mod:`tables.catalog`) registers it with
the game. No renderer does I/O, talks to Discord or keeps state between calls beyond caches of drawn glyphs.
"""
