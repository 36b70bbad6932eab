"""Kaiser through the shared conformance checks (tests/engine/conformance.py: with ``deep``
they include the record's replay to the same views), registered for the test only, over
every toggle; the catalogue offers every toggle with a description. The presentation
descriptor is checked by the registry-wide tests/engine/test_conformance.py once the game is
registered. ``CONFORMANCE_GAMES`` / ``CONFORMANCE_DEEP`` scale the number of games.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from engine import registry
from engine.kaiser import GAME
from tests.engine.conformance import play_random

QUICK = max(1, int(os.environ.get("CONFORMANCE_GAMES", "1000")) // 100)
DEEP = max(1, int(os.environ.get("CONFORMANCE_DEEP", "12")) // 12)
OPTIONS: list[dict[str, Any]] = [
    {},
    {"min_bid": 5, "dealer_equals": False, "restriction": "47"},
    {"min_bid": 8, "no_trump": False, "restriction": "off", "target": "64"},
    {"min_bid": 6, "misdeal": True},
]


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "kaiser", "engine.kaiser")


@pytest.mark.parametrize("options", OPTIONS, ids=[json.dumps(o, sort_keys=True) for o in OPTIONS])
def test_deep_random_games(options: dict[str, Any]) -> None:
    for seed in range(DEEP):
        m = play_random(GAME, 300 + seed, 4, options, deep=True)
        assert m.outcome() is not None


def test_many_quick_random_games_end_properly() -> None:
    reasons: set[str] = set()
    for seed in range(QUICK):
        m = play_random(GAME, seed, 4, OPTIONS[seed % len(OPTIONS)])
        o = m.outcome()
        assert o is not None and len(o.winners) == 2 and o.winners[1] == o.winners[0] + 2
        reasons.add(o.reason)
    assert "kaiser.fell_to_floor" in reasons


def test_catalogue_entry_offers_every_toggle_with_a_description() -> None:
    names = {o.name for o in GAME.info.options}
    assert names == {"min_bid", "dealer_equals", "no_trump", "restriction", "target",
                     "lose_at_minus", "misdeal"}
    assert all(o.description for o in GAME.info.options)
    assert GAME.info.option("restriction").choices == ("45", "47", "off")
    assert GAME.info.option("restriction").default == "45"
    mb = GAME.info.option("min_bid")
    assert (mb.default, mb.minimum, mb.maximum) == (7, 5, 8)
    assert GAME.info.option("misdeal").default is False
