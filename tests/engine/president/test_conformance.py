"""President through the generic conformance checks, with its options varied."""

from __future__ import annotations

import pytest

from engine.president import GAME
from tests.engine.conformance import play_random

OPTIONS = [{"revolution": True, "rounds": 3}, {"revolution": False, "rounds": 2},
           {"revolution": False, "rounds": 1}]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"rev{int(o['revolution'])}-r{o['rounds']}")
def test_deep_random_games_with_options(players: int, options: dict[str, object]) -> None:
    for seed in range(2):
        m = play_random(GAME, 500 + seed, players, options, deep=True)
        assert m.state.round == options["rounds"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_many_quick_series(players: int) -> None:
    for seed in range(60):
        m = play_random(GAME, seed, players, {"rounds": 3, "revolution": seed % 2 == 0})
        outcome = m.outcome()
        assert outcome is not None and len(outcome.winners) == 1
        assert sum(outcome.scores) == 3 * players * (players + 1) // 2
