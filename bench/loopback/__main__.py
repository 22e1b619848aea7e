"""``python -m bench.loopback``: the real bot process against the loopback double; see bench/README.md."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.load import DEFAULT_PLAYERS, run_bench, window_of
from bench.loopback.run import DYING_S, run_loopback


def show(r: dict[str, Any]) -> None:
    c = r["cpu_ms_per_move"]
    kids = ", ".join(f"{k}: {v} ms" for k, v in c["children"].items()) or "none"
    think = f", members thinking {r['think_s']} s on average" if r.get("think_s") else ""
    print(f"{r['game']} × {r['tables']} table(s) of {r['players']}{think}: {r['moves']} moves in {r['seconds']} s = "
          f"{r['moves_per_s']} moves/s (bot connected {r['connected_s']} s after its start; setup {r['setup_s']} s)\n"
          f"  answer p50/p95/max {r['answer_ms']['p50']}/{r['answer_ms']['p95']}/{r['answer_ms']['max']} ms "
          f"(n={r['answer_ms']['n']}); move → board p50/p95 {r['move_to_board_ms']['p50']}/"
          f"{r['move_to_board_ms']['p95']} ms (n={r['move_to_board_ms']['n']})\n"
          f"  CPU/move: bot process {c['bot']} ms; its children: {kids}; double + members process "
          f"{c['double_and_members']} ms; every bot process and the database server, children included: "
          f"{c['all']} ms; REST requests/move {r['requests_per_move']}\n"
          f"  interactions {r['interactions']}: late acks refused (10062) {r['late_acks']} "
          f"({r['late_acks_total']} in the whole run), answered twice {r['doubled_acks']}, never acked "
          f"{r['never_acked']}, refused {r['refused']}, stuck {r['stuck']}, shown as failed {r['failed']}\n"
          f"  lost {r['lost']}, doubled {r['doubled']} of {r['moves_checked']} moves checked against the database "
          f"({r['games']['started']} games, {r['games']['finished']} finished; ways {r['ways']})\n"
          f"  owed: moves committed as the bot stopped that their members were not told {r['owed']}\n"
          f"  bot stopped by {r['stop_signal']}{' under load' if r['stopped_under_load'] else ''} in {r['stop_s']} s, "
          f"exit code {r['exit_code']}; bot's log {r['bot_log']}; double errors: {r['double_errors'] or 'none'}")
    if "after_restart" in r:
        a = r["after_restart"]
        print(f"  restarted: connected in {a['restart_connected_s']} s; the outbox owed posts at "
              f"{a['tables_owing_at_stop']} tables when it stopped, at {a['still_owing']} after "
              f"{a['delivered_within_s']} s; its log {a['log']}")
    if "kill" in r:
        k = r["kill"]
        print(f"  kill -9 of the last process for {k['outage_s']} s: the other processes' tables "
              f"{k['others_moves_per_s_before']} moves/s before, {k['others_moves_per_s_while_dead']} while it was "
              f"dead; its own tables {k['victim_moves_while_dead']} moves while dead; restarted and connected in "
              f"{k['restart_connected_s']} s, its tables moving again {k['victim_moved_again_after_s']} s later "
              f"({'yes' if k['victim_moved_again'] else 'NO'})")
    if "kill" in r and "by_shard" in r:
        shards = [v for name, v in r["by_shard"].items() if name.startswith("shard ")]
        print(f"  of the doubled, committed by the killed process in its last {DYING_S:.0f} s, their members never "
              f"answered (the outbox posted their boards): {sum(v['committed_as_it_died'] for v in shards)}; "
              f"stored twice or otherwise not told: {sum(v['doubled'] for v in shards)}")
    if "by_shard" in r:
        b = r["by_shard"]
        print("  per shard: " + "; ".join(f"{name}: {v}" for name, v in b.items() if name.startswith("shard "))
              + f"; outbox owing at the end {b['outbox_owing_at_end']}")
    if r["refusals"]:
        print(f"  refusals the members were told (the most common): {r['refusals']}")
    for sample in r["mismatch_samples"]:
        print("   ", sample)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.loopback", description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--game", default="breaks")
    p.add_argument("--tables", default="1,20,200", help="concurrent tables (channels), comma-separated")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--options", default=None, help="the lobby's options, as /game new takes them")
    p.add_argument("--moves", type=int, default=None, help="measured moves per run (default 300 + 3 per table)")
    p.add_argument("--warmup", type=int, default=None, help="uncounted moves first (default 20 + 2 per table)")
    p.add_argument("--slash", type=float, default=0.2, help="share of turns played with /move (default 0.2)")
    p.add_argument("--patience", type=float, default=60.0)
    p.add_argument("--think", type=float, default=0.0, help="mean seconds (exponential) before each interaction")
    p.add_argument("--guilds", type=int, default=1, help="servers the tables are spread over")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--signal", choices=("SIGINT", "SIGTERM"), default="SIGINT", help="how the bot is stopped")
    p.add_argument("--stop-under-load", action="store_true",
                   help="stop the bot the moment the measured window closes, the members still playing (moves it "
                        "committed whose board had not come are counted as owed, not doubled)")
    p.add_argument("--folder", type=Path, default=None,
                   help="keep the database and the bot's log here (default: a temporary folder, removed)")
    p.add_argument("--processes", type=int, default=1,
                   help="bot processes, each given one shard of that many, the guilds split between them (issue 26)")
    p.add_argument("--postgresql", action="store_true",
                   help="the bots' database on a throwaway PostgreSQL server (tests/pg.py) instead of SQLite")
    p.add_argument("--kill", type=float, default=None, metavar="SECONDS",
                   help="with --processes 2 or more: kill -9 the last process a quarter of the way through the "
                        "measured moves, restart it after SECONDS, and report whether the others' tables stalled")
    p.add_argument("--json", type=Path, default=None, metavar="OUT")
    return p.parse_args(argv)


async def amain(args: argparse.Namespace) -> list[dict[str, Any]]:
    if not args.postgresql:
        return await _runs(args, None)
    from tests.pg import bench_server
    with bench_server() as server:
        return await _runs(args, server)


def server_pid(server: Any) -> int:
    """The PostgreSQL server's postmaster (its backends are its children)."""
    return int((server.data / "postmaster.pid").read_text().split()[0])


async def _runs(args: argparse.Namespace, server: Any) -> list[dict[str, Any]]:
    results = []
    for count in (int(x) for x in args.tables.split(",")):
        warmup, measure = window_of(args, count)
        url = server.create(migrated=False) if server is not None else None
        r = await run_loopback(args.game, count, players=args.players or DEFAULT_PLAYERS[args.game], seed=args.seed,
                               warmup=warmup, measure=measure, options=args.options, slash_share=args.slash,
                               patience=args.patience,
                               think=args.think, guilds=args.guilds, stop_signal=getattr(signal, args.signal),
                               under_load=args.stop_under_load,
                               folder=args.folder / f"{args.game}-{count}" if args.folder else None,
                               processes=args.processes, database_url=url, kill_outage_s=args.kill,
                               server_pids=(lambda: [server_pid(server)]) if server is not None else None)
        r["stop_signal"] = args.signal
        r["processes"], r["backend"] = args.processes, "postgresql" if url else "sqlite"
        print(f"{r['processes']} process(es) on {r['backend']}")
        show(r)
        sys.stdout.flush()
        results.append(r)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    return run_bench("bench.loopback", amain(args), args.json)


if __name__ == "__main__":
    sys.exit(main())
