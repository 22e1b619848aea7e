"""Project-level checks: start-up without a token, settings, lint, and the README's commands."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cogs.client import ConfigError, Settings

ROOT = Path(__file__).resolve().parent.parent


def test_bot_without_token_exits_with_a_clear_message(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    # Run from a copy-free temp dir so no developer .env is picked up: bot.py reads .env next to itself,
    # so point it at an empty token explicitly instead.
    env["DISCORD_TOKEN"] = ""
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "README" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "x", "BLOCKHOUSE_TEST_GUILD": "abc"}, "BLOCKHOUSE_TEST_GUILD"),
        ({"DISCORD_TOKEN": "x", "LOG_LEVEL": "loud"}, "LOG_LEVEL"),
    ],
)
def test_bad_settings_name_the_key(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_settings_defaults_and_values() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": " tok "})
    assert (s.token, s.test_guild, s.database, s.log_level) == ("tok", None, "data/blockhouse.db", "INFO")
    s = Settings.from_env({"DISCORD_TOKEN": "t", "BLOCKHOUSE_TEST_GUILD": "123", "BLOCKHOUSE_DB": "x.db",
                           "LOG_LEVEL": "debug"})
    assert (s.test_guild, s.database, s.log_level) == (123, "x.db", "DEBUG")


def test_env_example_lists_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    for key in ("DISCORD_TOKEN", "BLOCKHOUSE_TEST_GUILD", "BLOCKHOUSE_DB", "LOG_LEVEL"):
        assert f"{key}=" in text


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = ci.strip().splitlines()[-1].replace(" -q", "")
    assert command in readme


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
                    reason="ruff is installed by requirements-dev.txt")
def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff
    proc = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_types_are_clean() -> None:
    """mypy over the whole tree (settings in pyproject.toml), like CI's other checks: part of the test command."""
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    assert mypy, "mypy is installed by requirements-dev.txt"
    proc = subprocess.run([mypy, "."], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_start_that_cannot_reach_discord_says_so_in_one_line(tmp_path: Path) -> None:
    """Offline (as in CI) the bot can't reach Discord: one clear line, no traceback, no voice warnings. (With a
    network, Discord refuses the made-up token instead: also one line.)"""
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "BLOCKHOUSE_DB": str(tmp_path / "b.db")}
    proc = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode in (1, 2), proc.stderr
    ours = [line for line in proc.stderr.splitlines() if line.startswith("blockhouse:")]
    assert len(ours) == 1 and ("reach Discord" in ours[0] or "rejected" in ours[0])
    assert "Traceback" not in proc.stderr and "voice will NOT be supported" not in proc.stderr


def test_a_bots_worker_started_by_the_bot_imports_nothing_of_bot_py() -> None:
    """A spawned worker runs the parent's main module first (as ``__mp_main__``): bot.py must then import neither
    discord.py nor the table service, or every worker of the real bot would take seconds to start."""
    probe = ("import runpy, sys; runpy.run_path(sys.argv[1], run_name='__mp_main__'); "
             "print(sorted({m.split('.')[0] for m in sys.modules} & {'discord', 'tables', 'cogs', 'storage', 'PIL'}))")
    proc = subprocess.run([sys.executable, "-c", probe, str(ROOT / "bot.py")], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]", proc.stdout
