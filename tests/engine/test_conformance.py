"""Every registered game passes the generic conformance check (see conformance.py).

``CONFORMANCE_GAMES`` scales the number of cheap random games per game and player count.
"""

from __future__ import annotations

import os

import pytest

from engine import registry
from tests.engine.conformance import play_random

QUICK = int(os.environ.get("CONFORMANCE_GAMES", "1000"))
DEEP = int(os.environ.get("CONFORMANCE_DEEP", "12"))


def player_counts(game_id: str) -> list[int]:
    counts = list(registry.get(game_id).info.players)
    if len(counts) <= 3:
        return counts
    return [counts[0], counts[len(counts) // 2], counts[-1]]


CASES = [(g, n) for g in registry.ids() for n in player_counts(g)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_games(game_id: str, players: int) -> None:
    game = registry.get(game_id)
    per_count = max(1, QUICK // len(player_counts(game_id)))
    for seed in range(per_count):
        play_random(game, seed, players)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_deep_random_games(game_id: str, players: int) -> None:
    game = registry.get(game_id)
    for seed in range(DEEP):
        play_random(game, 10_000 + seed, players, deep=True)


def test_catalogue_is_not_empty() -> None:
    assert registry.ids(), "no game is registered"
