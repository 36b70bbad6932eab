"""Wizard through the shared conformance checks (tests/engine/conformance.py) over every
option set and player count, registered for the test only (the lead registers the game); also:
seats' views differ. Owns no rules cases (test_rules.py) and no redaction cases
(test_views.py).

Games are capped at five or ten rounds except one full game per player count, which the deep
check follows with six players only (ten rounds): a deep step re-checks every seat's view and
a full three-player game is 20 rounds, so this keeps the file under a minute.
"""

from __future__ import annotations

import os

import pytest

from engine import registry
from engine.codec import to_data
from engine.wizard import GAME
from tests.engine.conformance import play_random

GAMES = int(os.environ.get("CONFORMANCE_GAMES", "4"))

OPTION_SETS = [
    {"rounds": "5"},
    {"rounds": "5", "screw_the_dealer": True},
    {"rounds": "5", "hidden_bids": True},
    {"rounds": "10", "hidden_bids": True},
]


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "wizard", "engine.wizard")


@pytest.mark.parametrize("players", GAME.info.players)
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_end_under_every_option_set(players: int, options: dict[str, object]) -> None:
    for seed in range(GAMES):
        m = play_random(GAME, seed, players, options, deep=seed == 0)
        assert m.outcome() is not None
        assert len(m.state.sheet) == int(str(options["rounds"]))


@pytest.mark.parametrize("players", GAME.info.players)
def test_a_full_game_plays_every_round(players: int) -> None:
    m = play_random(GAME, 100 + players, players, {}, deep=players == 6)
    assert len(m.state.sheet) == 60 // players


def test_views_differ_by_seat() -> None:
    m = play_random(GAME, 1, None, {"rounds": "5"})
    m2 = play_random(GAME, 1, None, {"rounds": "5"})
    assert to_data(m.view(0)) == to_data(m2.view(0))  # deterministic from the seed
    views = {s: repr(to_data(m.view(s))) for s in (None, 0, 1)}
    assert len(set(views.values())) == 3
