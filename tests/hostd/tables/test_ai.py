"""Computer players off the event loop: a worker process answers with a legal move, and a
player that fails falls back to a random legal move so the table never stalls."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.match import Match
from hostd.tables.ai import AIWorkers, _decide, open_ai


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
