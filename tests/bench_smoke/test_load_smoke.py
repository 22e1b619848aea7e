"""bench.load runs end to end: one table of Breaks, a few moves through discord.py's real code path (simcord), every
move the members were told was played stored once. No timing is asserted: the figures are the bench's business."""

from __future__ import annotations

from pathlib import Path

from bench.load import run_load

KEYS = {"game", "tables", "players", "moves", "seconds", "moves_per_s", "answer_ms", "move_to_board_ms",
        "cpu_ms_per_move", "db_calls_per_move", "interactions", "late_acks", "late_calls", "refused", "stuck",
        "never_acked", "log_errors", "log_warnings", "tracebacks", "rss_mb", "loop_lag_ms", "lost", "doubled",
        "moves_checked", "moves_stored", "cancelled", "owed_after_settle", "games", "ways"}


async def test_one_table_of_breaks_a_few_moves(tmp_path: Path, _migrated_database: Path) -> None:
    report = await run_load("breaks", 1, players=2, seed=3, warmup=2, measure=8, options=None, slash_share=0.3,
                            patience=120.0, folder=tmp_path, template=_migrated_database)
    assert report.keys() >= KEYS
    assert report["moves"] >= 8
    assert report["moves_checked"] >= 10, "the warm-up's moves are checked too"
    assert report["lost"] == 0 and report["doubled"] == 0, report["mismatch_samples"]
    assert report["moves_stored"] == report["moves_checked"], "every stored move, by seat, told to its member"
    assert report["owed_after_settle"] == 0, report["owed_tables"]
    assert report["stuck"] == 0 and report["never_acked"] == 0
    assert report["answer_ms"]["n"] >= 8 and report["db_calls_per_move"] > 0
    assert set(report["cpu_ms_per_move"]) >= {"process", "bot", "simcord_router", "bench_members", "children"}
