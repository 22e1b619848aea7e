"""bench.loopback end to end: the real ``python bot.py`` process against the loopback Discord double (REST and the
gateway's websocket, in this process), two tables of Breaks, a few moves. Checks moves were played, every move the
members were told was played is stored once, and the bot stopped cleanly on SIGINT and on SIGTERM. No timing is
asserted (the members wait for what the bot does, with generous patience)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bench.loopback.run import run_loopback


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])  # Ctrl-C; a service manager, docker stop
async def test_the_bot_process_plays_two_tables_against_the_double(tmp_path: Path, stop: signal.Signals) -> None:
    report = await run_loopback("breaks", 2, players=2, seed=5, warmup=2, measure=8, slash_share=0.3,
                                patience=120.0, folder=tmp_path, stop_signal=stop,
                                env={"BLOCKHOUSE_RENDER_WORKERS": "1"},  # the 2-core default, as live
                                expiry_s=600.0)  # (Discord's 3 s is no test of this machine's speed)
    tail = report["bot_log_tail"]
    assert report["moves"] >= 8, tail
    # every move told played is checked, the warm-up's too; a click a board seemed to answer but that the bot then
    # refused ("Already played", "from an earlier position") is taken back, as its member was told
    assert report["moves_checked"] >= 8
    assert report["lost"] == 0 and report["doubled"] == 0, report["mismatch_samples"]
    assert report["stuck"] == 0 and report["never_acked"] == 0 and report["doubled_acks"] == 0, tail
    assert report["double_errors"] == [], report["double_errors"]
    assert report["exit_code"] == 0, tail  # stopped by the signal: closed in order, nothing killed
    assert report["bot_log"] == {"errors": 0, "warnings": 0, "tracebacks": 0}, tail
    assert report["games"]["started"] == 2
    assert report["cpu_ms_per_move"]["bot"] > 0


def test_the_double_s_address_is_a_setting_for_benches_only() -> None:
    from cogs.client import ConfigError, Settings

    assert Settings.from_env({"DISCORD_TOKEN": "t"}).discord_api is None  # a real bot talks to Discord
    given = Settings.from_env({"DISCORD_TOKEN": "t", "BLOCKHOUSE_DISCORD_API": " http://127.0.0.1:8123/ "})
    assert given.discord_api == "http://127.0.0.1:8123"
    with pytest.raises(ConfigError, match="BLOCKHOUSE_DISCORD_API"):
        Settings.from_env({"DISCORD_TOKEN": "t", "BLOCKHOUSE_DISCORD_API": "127.0.0.1:8123"})
