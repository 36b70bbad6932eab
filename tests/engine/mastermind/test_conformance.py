"""Mastermind through the shared conformance checks (tests/engine/conformance.py), registered
for the test (conftest.py), with every toggle and both modes: seeded random games, a few with
the deep checks (every legal action applies, illegal ones are refused unchanged, views are
byte-for-byte invariant when the hidden codes are redrawn, legal lists stay under the wire
bound, records replay to the same views), and the shared checks of the descriptor."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import registry
from engine.codec import to_wire
from engine.mastermind import GAME
from tests.engine import test_conformance as shared
from tests.engine.conformance import play_random
from tests.engine.view_pins import steps

# Random breakers never break a code, so a random game runs every row of every game, and
# random entry takes some twenty steps a row: the deep configurations keep rows and games
# few (each step of a deep game runs every check), the quick ones cover the rest.
CONFIGS: list[dict[str, Any]] = [
    {},
    {"mode": "duel", "games": 3},
    {"codemaker": "computer"},
    {"codemaker": "computer", "mode": "duel", "games": 1},
    {"holes": 3, "colours": 8, "rows": 6},
    {"holes": 5, "colours": 8, "blanks": True, "rows": 12},
    {"duplicates": False, "blanks": True, "games": 4},
    {"duplicates": False, "holes": 5, "mode": "duel", "games": 2},
]
DEEP: list[dict[str, Any]] = [
    {"rows": 6},
    {"mode": "duel", "games": 1, "rows": 6},
    {"codemaker": "computer", "rows": 6},
    {"codemaker": "computer", "mode": "duel", "games": 2, "rows": 6},
    {"holes": 3, "colours": 8, "rows": 6},
    {"holes": 5, "colours": 8, "blanks": True, "rows": 6},
    {"duplicates": False, "blanks": True, "rows": 6},
    {"duplicates": False, "holes": 5, "mode": "duel", "games": 1, "rows": 6},
]


@pytest.mark.parametrize("options", DEEP, ids=lambda o: json.dumps(o, sort_keys=True))
def test_deep_random_games(options: dict[str, Any]) -> None:
    m = play_random(GAME, 700, 2, options, deep=True)
    assert m.outcome() is not None


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_many_quick_random_games(options: dict[str, Any]) -> None:
    for seed in range(20):
        play_random(GAME, seed, 2, options)


def test_the_shared_registry_checks_pass_once_registered() -> None:
    assert "mastermind" in registry.ids()
    shared.test_presentation_descriptor_fits_the_game("mastermind")
    play_random(registry.get("mastermind"), 10_000, 2, deep=True)


def test_legal_lists_stay_under_8_kib_at_every_step() -> None:
    """Every step of random games on the largest table (5 holes, 8 colours and blanks)."""
    from engine.match import Match

    worst = 0
    for seed in range(3):
        m = Match.start(GAME, 2, {"holes": 5, "colours": 8, "blanks": True}, seed,
                        resolve=False)
        for _ in steps(m, seed):
            for seat in (0, 1):
                size = len(json.dumps(to_wire(m.legal(seat)), separators=(",", ":")))
                worst = max(worst, size)
    assert 0 < worst < 8 * 1024, worst
