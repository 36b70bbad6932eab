"""Backgammon through the shared conformance checks (tests/engine/conformance.py), with every
toggle: seeded random games, a few with the deep checks (every legal action applies, illegal
ones are refused unchanged, views byte-for-byte invariant when the seed is redrawn, legal lists
under the bound, records replay to the same views), and the shared descriptor checks."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from engine import registry
from engine.backgammon import GAME
from tests.engine import test_conformance as shared
from tests.engine.conformance import play_random

# Scaled by the shared variables (tests/engine/test_conformance.py): at their defaults (1000
# quick, 12 deep) 4 quick games and 1 deep game per configuration, about 5 s in all.
QUICK = max(1, int(os.environ.get("CONFORMANCE_GAMES", "1000")) // 250)
DEEP = max(1, int(os.environ.get("CONFORMANCE_DEEP", "12")) // 12)

CONFIGS: list[dict[str, Any]] = [
    {},
    {"cube": False},
    {"mode": "match", "length": 3},
    {"jacoby": True, "beavers": True, "auto_doubles": True, "games": 2},
    {"gammons": False, "games": 2},
]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_deep_random_game(options: dict[str, Any]) -> None:
    for seed in range(DEEP):
        assert play_random(GAME, 700 + seed, 2, options, deep=True).outcome() is not None


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_quick_random_games(options: dict[str, Any]) -> None:
    for seed in range(QUICK):
        assert play_random(GAME, seed, 2, options).outcome() is not None


def test_the_shared_registry_checks_pass_once_registered() -> None:
    assert "backgammon" in registry.ids()
    shared.test_presentation_descriptor_fits_the_game("backgammon")
    play_random(registry.get("backgammon"), 10_000, 2, deep=True)
