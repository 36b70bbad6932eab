"""Wizard through the shared conformance checks (tests/engine/conformance.py), registered for
the test only (the lead registers the game); also: no seat's encoded view carries another
seat's hand. Owns no rules cases; those belong in test_rules.py (not written yet).
"""

from __future__ import annotations

import os

import pytest

from engine import registry
from engine.codec import to_data
from engine.wizard import GAME
from tests.engine.conformance import play_random

GAMES = int(os.environ.get("CONFORMANCE_GAMES", "4"))


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "wizard", "engine.wizard")


def test_random_games_end() -> None:
    for seed in range(GAMES):
        m = play_random(GAME, seed, None, {}, deep=seed == 0)
        assert m.outcome() is not None


def test_views_differ_by_seat() -> None:
    m = play_random(GAME, 1, None, {})
    views = {s: repr(to_data(m.view(s))) for s in (None, 0, 1)}
    assert views[0] != views[1]
