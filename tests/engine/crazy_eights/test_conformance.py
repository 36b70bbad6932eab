"""Crazy Eights through the shared conformance checks (tests/engine/conformance.py), registered
for the test only, over every option set; records replay through the registry.

``CONFORMANCE_GAMES`` / ``CONFORMANCE_DEEP`` scale the number of games as for every game.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from engine import registry
from engine.codec import to_data
from engine.crazy_eights import GAME
from engine.records import replay, to_record
from tests.engine.conformance import play_random

QUICK = max(1, int(os.environ.get("CONFORMANCE_GAMES", "1000")) // 50)
DEEP = max(1, int(os.environ.get("CONFORMANCE_DEEP", "12")) // 12)
# A low target keeps a game to a round or two; every toggle is covered.
OPTIONS: list[dict[str, Any]] = [
    {"target": 40},
    {"target": 40, "draw": "one", "reshuffle": False},
    {"target": 40, "draw": "three", "draw_when_able": False},
    {"target": 40, "scoring": "penalty"},
    {"target": 40, "draw_when_able": False, "reshuffle": False, "scoring": "penalty"},
    {"target": 40, "two_decks_from": 3, "draw": "three"},
]


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "crazy_eights", "engine.crazy_eights")


CASES = [(p, o) for o in OPTIONS for p in (2, 4)] + [(6, OPTIONS[0])]  # two decks at six


@pytest.mark.parametrize(("players", "options"), CASES,
                         ids=[f"{p}-{json.dumps(o, sort_keys=True)}" for p, o in CASES])
def test_deep_random_games(players: int, options: dict[str, Any]) -> None:
    for seed in range(DEEP):
        m = play_random(GAME, 300 + seed, players, options, deep=True)
        assert m.outcome() is not None


def test_many_quick_random_games_end_properly() -> None:
    reasons: set[str] = set()
    for seed in range(QUICK):
        for players in (2, 3, 5):
            m = play_random(GAME, seed, players, OPTIONS[seed % len(OPTIONS)])
            o = m.outcome()
            assert o is not None and o.draw == (o.winners == ())
            reasons.add(o.reason)
    assert {"crazy_eights.most_points", "crazy_eights.fewest_points"} <= reasons



def test_records_replay_through_the_registry() -> None:
    m = play_random(GAME, 5, 3, OPTIONS[1])
    rec = json.loads(json.dumps(to_record(m, include_seed=False)))
    result = replay(rec)
    assert result.valid and result.steps == len(m.steps)
    assert to_data(result.match.outcome()) == to_data(m.outcome())


def test_catalogue_entry_offers_every_toggle() -> None:
    names = {o.name for o in GAME.info.options}
    assert names == {"draw", "draw_when_able", "reshuffle", "scoring", "target",
                     "two_decks_from"}
    assert all(len(o.description) > 20 for o in GAME.info.options)
    assert GAME.info.option("draw").choices == ("until_playable", "three", "one")
    assert GAME.info.option("scoring").choices == ("winner_collects", "penalty")
    assert (GAME.info.option("two_decks_from").minimum,
            GAME.info.option("two_decks_from").maximum) == (2, 7)
