"""`tablebox doctor`'s chess engine line, against the real Stockfish (.ci/run installs it)
and against what stands in for its absence: the switch that turns it off, a path that is not
there, and a program that does not speak UCI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hostd import doctor
from hostd.tables import stockfish
from tests.hostd.test_doctor import ctx, free_port

ROOT = Path(__file__).resolve().parents[1].parent


def engine_line(tmp_path: Path) -> doctor.Check:
    (check,) = list(doctor.check_chess_engine(ctx(tmp_path)))
    return check


def test_stockfish_is_named_with_its_path_and_version(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(stockfish.ENV, raising=False)
    found = stockfish.locate()
    assert found.path is not None, found.why  # the test machines have Debian's stockfish
    check = engine_line(tmp_path)
    assert check.status == "ok"
    assert re.match(r"Stockfish \d+(\.\d+)? at ", check.detail), check.detail
    assert found.path in check.detail


@pytest.mark.parametrize(("value", "why"), [
    ("none", "turns it off"),
    ("/nonexistent/stockfish", "is not an executable file"),
    ("/bin/true", "does not answer UCI"),
])
def test_without_a_usable_stockfish_the_built_in_search_is_named_with_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, why: str) -> None:
    monkeypatch.setenv(stockfish.ENV, value)
    check = engine_line(tmp_path)
    assert check.status == "warn"
    assert check.detail.startswith("built-in search: ") and why in check.detail, check.detail
    assert "apt install stockfish" in check.fix


def test_the_command_prints_one_chess_engine_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != stockfish.ENV}
    out = subprocess.run(
        [sys.executable, "-m", "hostd.cli", "doctor", "--json", "--bind", "127.0.0.1",
         "--no-mdns", "--no-bluetooth", "--data-dir", str(tmp_path), "--control",
         str(tmp_path / "c.sock"), "--tcp-port", str(free_port()), "--http-port",
         str(free_port())], cwd=ROOT, capture_output=True, text=True, check=False,
        timeout=120, env=env)
    checks = json.loads(out.stdout)["checks"]
    lines = [c for c in checks if c["name"] == "chess engine"]
    assert len(lines) == 1 and lines[0]["detail"].startswith("Stockfish "), lines
