"""Checkers through the shared conformance checks (tests/engine/conformance.py), registered
for the test only (``GAME_MODULES`` waits for the presentation contract), with every option.

Also: every seat's legal list stays under 8 KiB as the wire encodes it (step entry keeps it
to a handful of actions), and the presentation descriptor names real view and action fields.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import registry
from engine.checkers import GAME
from engine.codec import to_data, to_wire
from engine.match import Match
from engine.presentation import presentation_problems
from engine.records import replay, to_record
from tests.engine.conformance import play_random

LEGAL_MAX = 8 * 1024
OPTIONS: list[dict[str, Any]] = [
    {},
    {"draw_rules": "claim"},
    {"ballot": True},
    {"ballot": True, "ballot_number": 120, "draw_rules": "claim"},
]


@pytest.fixture(autouse=True)
def checkers_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "checkers", "engine.checkers")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_deep_random_games(options: dict[str, Any]) -> None:
    for seed in range(4):
        m = play_random(GAME, 300 + seed, 2, options, deep=True)
        assert m.outcome() is not None


def test_many_quick_random_games_end_properly() -> None:
    reasons: set[str] = set()
    for seed in range(120):
        m = play_random(GAME, seed, 2, OPTIONS[seed % len(OPTIONS)])
        o = m.outcome()
        assert o is not None
        reasons.add(o.reason)
        assert o.draw == (o.winners == ())
    assert {"checkers.no_pieces", "checkers.no_moves"} & reasons


def test_legal_lists_stay_small() -> None:
    """At most 12 picks and 2 claims, or 4 landings, 11 other picks and 2 claims: a few
    hundred bytes, far under the bound, whatever the position."""
    worst = 0
    for seed in range(40):
        m = Match.start(GAME, 2, OPTIONS[seed % len(OPTIONS)], seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            for seat in range(2):
                size = len(json.dumps(to_wire(m.legal(seat)), separators=(",", ":")))
                worst = max(worst, size)
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
    assert worst <= LEGAL_MAX
    assert worst < 1024


def test_presentation_descriptor_fits_the_game() -> None:
    p = GAME.info.presentation
    assert presentation_problems(p) == []
    m = play_random(GAME, 77, 2, {"ballot": True})
    rec = to_record(m)
    action_fields = {k for step in rec["steps"] if "action" in step
                     for k in step["action"]} - {"type"}
    view_fields = set(to_data(m.view(None)))
    assert all(z.field in view_fields for z in p.zones)
    assert all(set(g.fields) <= action_fields for g in p.gestures)
    assert len(p.seat_colours) >= 2


def test_records_replay_through_the_registry() -> None:
    m = play_random(GAME, 5, 2, {"ballot": True, "draw_rules": "claim"})
    rec = json.loads(json.dumps(to_record(m, include_seed=False)))
    result = replay(rec)
    assert result.valid and result.steps == len(m.steps)
    assert to_data(result.match.outcome()) == to_data(m.outcome())
    assert registry.get("checkers") is GAME
