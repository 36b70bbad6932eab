"""Computer players off the event loop: a worker process answers with a legal move, a player
that fails falls back to a random legal move so the table never stalls, and the workers
never outlive the daemon."""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

import pytest

from engine import registry
from engine.match import Match
from hostd.tables.ai import AIWorkers, _decide, open_ai
from tests.hostd.helpers import short_dir, start_process


async def test_a_worker_process_chooses_a_legal_move() -> None:
    m = Match.start(registry.get("toy"), 3, None, 9)
    seat = m.to_act()[0]
    legal = m.legal(seat)
    async with open_ai(1) as ai:
        assert ai.processes == 1
        choices = [await ai.decide("toy", "random", m.view(seat), legal, random.Random(i))
                   for i in range(6)]
        assert set(choices) <= set(legal)
        assert ai.decisions == 6 and ai.fallbacks == 0


async def test_a_failing_player_falls_back_to_a_random_legal_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    m = Match.start(registry.get("toy"), 2, None, 3)
    seat = m.to_act()[0]
    legal = m.legal(seat)

    def broken(*args: object) -> int:
        raise RuntimeError("a bug in a player")

    monkeypatch.setattr("hostd.tables.ai._decide", broken)
    ai = AIWorkers(0)
    choice = await ai.decide("toy", "random", m.view(seat), legal, random.Random(1))
    assert choice in legal and ai.fallbacks == 1


def test_decide_registers_games_known_only_to_the_parent() -> None:
    m = Match.start(registry.get("toy"), 2, None, 4)
    seat = m.to_act()[0]
    legal = m.legal(seat)
    index = _decide("toy", "tests.hostd.toy", "random", m.view(seat), legal, random.Random(2))
    assert 0 <= index < len(legal)


def test_worker_processes_do_not_outlive_a_killed_daemon() -> None:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "1")
    try:
        children = subprocess.run(["pgrep", "-P", str(d.proc.pid)], capture_output=True,
                                  text=True, check=False).stdout.split()
        assert children, "the daemon started an AI worker process"
    finally:
        d.kill()
    deadline = time.monotonic() + 10
    alive = children
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in children if Path(f"/proc/{pid}").exists()]
    assert not alive, f"AI workers left behind: {alive}"
