"""Seeded Euchre games pinned to digests taken before the speed work: same seed, same game.

Stored records are replayed from seed + step index, and hosts render the views, so any
optimisation of the rules or the match must leave every chance draw, legal list, view, step
and outcome exactly as it was. The digests hash ``repr`` (not the wire codec, which has its
own tests) of everything a seat or a record can observe, step by step.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping

import pytest

from engine import selfplay
from engine.euchre import GAME
from engine.match import ActionStep, ChanceStep, Match

TABLES: dict[str, Mapping[str, object]] = {
    "default": {},
    "deck32_defend": {"deck": "32", "defend_alone": True, "target": "15"},
    "no_stick_no_alone": {"stick_the_dealer": False, "going_alone": False, "target": "11"},
}


def observed(options: Mapping[str, object], seed: int, views: bool) -> str:
    """The digest of one random game: the chooser is seeded too, so the game is fixed."""
    h = hashlib.sha256()
    m = Match.start(GAME, 4, options, seed)
    rng = random.Random(seed * 7 + 1)
    while m.outcome() is None:
        seats = m.to_act()
        if not seats:
            assert m.resolve_chance()
            continue
        seat = seats[0]
        legal = m.legal(seat)
        h.update(repr(legal).encode())
        if views:
            for s in (None, 0, 1, 2, 3):
                h.update(repr(m.view(s)).encode())
        m.act(seat, legal[rng.randrange(len(legal))])
        m.resolve_chance()
    for step in m.steps:
        if isinstance(step, ChanceStep):
            h.update(b"chance" + repr(step.outcome).encode())
        else:
            assert isinstance(step, ActionStep)
            h.update(f"{step.seat}:{step.action!r}".encode())
    h.update(repr(m.outcome()).encode())
    for s in (None, 0, 1, 2, 3):
        h.update(repr(m.view(s)).encode())
    return h.hexdigest()[:16]


PINNED = {
    "deck32_defend:views": "352680b154ac14fa",
    "default:views": "94f84a8bf51e0566",
    "no_stick_no_alone:views": "35eab6e65b258aab",
    "bench": "ea666471f5be9f56",
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_seeded_games_with_every_view_are_unchanged(table: str) -> None:
    got = "".join(observed(TABLES[table], seed, views=True) for seed in range(6))
    assert hashlib.sha256(got.encode()).hexdigest()[:16] == PINNED[f"{table}:views"]


def test_the_bench_seeds_give_the_same_games() -> None:
    got = "".join(observed({}, seed, views=False) for seed in range(300))
    assert hashlib.sha256(got.encode()).hexdigest()[:16] == PINNED["bench"]


def test_computer_players_play_the_same_games() -> None:
    """The players read only views, so the same views must give the same self-play games."""
    h = hashlib.sha256()
    for seed in range(4):
        result = selfplay.play("euchre", None, None, ["normal", "easy"], seed)
        for step in result.match.steps:
            h.update(repr((getattr(step, "seat", None), getattr(step, "action", None),
                           getattr(step, "outcome", None))).encode())
        h.update(repr(result.outcome).encode())
    assert h.hexdigest()[:16] == "2b9fd98caa163078"
