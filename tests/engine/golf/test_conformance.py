"""Golf through the shared conformance checks (tests/engine/conformance.py), registered for
the test only, over every layout and toggle; records replay through the registry. The
invariance check covers peeked and face-down cards: ``resample_hidden`` redraws every card a
seat has not seen, and the seat's view must not change by a byte.

``CONFORMANCE_GAMES`` / ``CONFORMANCE_DEEP`` scale the number of games as for every game.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from engine import registry
from engine.codec import to_data
from engine.golf import GAME
from engine.records import replay, to_record
from tests.engine.conformance import play_random

QUICK = max(1, int(os.environ.get("CONFORMANCE_GAMES", "1000")) // 50)
DEEP = max(1, int(os.environ.get("CONFORMANCE_DEEP", "12")) // 6)
OPTIONS: list[dict[str, Any]] = [
    {"holes": 1},
    {"holes": 2, "layout": "4"},
    {"holes": 1, "layout": "4", "end": "face_up", "knock_penalty": True},
    {"holes": 1, "layout": "8", "flip": "mandatory", "final_turn": False},
    {"holes": 1, "layout": "9", "knock_penalty": True},
    {"holes": 1, "layout": "6", "end": "knock"},
]
CASES = [(p, o) for o in OPTIONS for p in (2, 4)]


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "golf", "engine.golf")


@pytest.mark.parametrize(("players", "options"), CASES,
                         ids=[f"{p}-{json.dumps(o, sort_keys=True)}" for p, o in CASES])
def test_deep_random_games(players: int, options: dict[str, Any]) -> None:
    for seed in range(DEEP):
        m = play_random(GAME, 300 + seed, players, options, deep=True)
        assert m.outcome() is not None


def test_many_quick_random_games_end_properly() -> None:
    reasons: set[str] = set()
    for seed in range(QUICK):
        for players in (2, 3, 6):
            m = play_random(GAME, seed, players, OPTIONS[seed % len(OPTIONS)])
            o = m.outcome()
            assert o is not None and o.draw == (o.winners == ())
            reasons.add(o.reason)
    assert "golf.lowest_total" in reasons



def test_records_replay_through_the_registry() -> None:
    m = play_random(GAME, 5, 3, OPTIONS[1])
    rec = json.loads(json.dumps(to_record(m, include_seed=False)))
    result = replay(rec)
    assert result.valid and result.steps == len(m.steps)
    assert to_data(result.match.outcome()) == to_data(m.outcome())


def test_catalogue_entry_offers_every_toggle() -> None:
    names = {o.name for o in GAME.info.options}
    assert names == {"layout", "end", "final_turn", "flip", "holes", "knock_penalty"}
    assert GAME.info.option("layout").choices == ("4", "6", "8", "9")
    assert GAME.info.option("holes").default == 9
