"""The real ``python bot.py`` against a Discord double on loopback, in another process (issues 28 and 26).

:mod:`bench.loopback.double` is the double (REST under ``/api/v10`` and the gateway's websocket, zlib-stream
compressed, shards honoured); :mod:`bench.loopback.run` starts it, starts the bot as a subprocess pointed at it
(``BLOCKHOUSE_DISCORD_API``), plays with bench.load's members and reports. ``python -m bench.loopback --help``.
"""
