"""Chess through the shared conformance checks (tests/engine/conformance.py), registered for
the test only (the lead registers it in ``GAME_MODULES``), with every option.

Uniformly random actions include resigning and offers, so those games are short; the random
*move* games below play positions out to their real ends (mate, stalemate, dead positions,
fivefold, 75 moves) with views, records and replays checked on them too. Counts scale with
the same variables as the shared conformance test (``CONFORMANCE_GAMES``,
``CONFORMANCE_DEEP``), divided down: chess moves cost more than most games' steps.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from engine import registry
from engine.chess import GAME
from engine.chess.state import OfferDraw, Resign
from engine.codec import to_data, to_wire
from engine.match import Match
from engine.presentation import LEGAL_BYTES_MAX, presentation_problems
from engine.records import replay, to_record
from tests.engine.conformance import all_views, check_common, check_view_invariance, play_random

QUICK = max(4, int(os.environ.get("CONFORMANCE_GAMES", "1000")) // 25)
DEEP = max(1, int(os.environ.get("CONFORMANCE_DEEP", "12")) // 4)
OPTIONS: list[dict[str, Any]] = [
    {},
    {"draw_rules": "auto_claim"},
    {"clock": "5+3"},
    {"chess960": True},
    {"chess960": True, "chess960_position": 0, "draw_rules": "auto_claim"},
]


@pytest.fixture(autouse=True)
def chess_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "chess", "engine.chess")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: json.dumps(o, sort_keys=True))
def test_deep_random_games(options: dict[str, Any]) -> None:
    for seed in range(DEEP):
        m = play_random(GAME, 300 + seed, 2, options, deep=True)
        assert m.outcome() is not None


def test_many_quick_random_games_end_properly() -> None:
    for seed in range(QUICK):
        m = play_random(GAME, seed, 2, OPTIONS[seed % len(OPTIONS)])
        o = m.outcome()
        assert o is not None and o.draw == (o.winners == ())


def random_move_game(seed: int, options: dict[str, Any], *, check_every: int = 0) -> Match:
    """Random moves to the end (no resigning or offers), entered in steps; every
    ``check_every`` steps the views, their common part and their invariance are checked."""
    m = Match.start(GAME, 2, options, seed)
    rng = random.Random(seed)
    step = 0
    while m.outcome() is None:
        seat = m.to_act()[0]
        legal = [a for a in m.legal(seat) if not isinstance(a, (Resign, OfferDraw))]
        if check_every and step % check_every == 0:
            for s in (None, 0, 1):
                check_common(GAME, m, s)
            check_view_invariance(GAME, m.state, 2, rng)
            size = len(json.dumps(to_wire(m.legal(seat)), separators=(",", ":")).encode())
            assert size <= LEGAL_BYTES_MAX
        m.act(seat, legal[rng.randrange(len(legal))])
        step += 1
    return m


def test_random_move_games_reach_the_real_endings_and_replay() -> None:
    reasons: set[str] = set()
    for seed in range(max(6, QUICK // 4)):
        m = random_move_game(seed, OPTIONS[seed % 2], check_every=37)
        o = m.outcome()
        assert o is not None
        reasons.add(o.reason)
        if seed < 2:
            rec = json.loads(json.dumps(to_record(m)))
            result = replay(rec)
            assert result.valid and all_views(result.match) == all_views(m)
    # Random chess mostly ends in dead positions, with mates, fivefolds and claims among them.
    assert "chess.insufficient_material" in reasons
    assert reasons <= {"chess.insufficient_material", "chess.checkmate", "chess.stalemate",
                       "chess.fivefold", "chess.seventyfive_moves", "chess.threefold",
                       "chess.fifty_moves", "chess.claimed_threefold",
                       "chess.claimed_fifty_moves"}


def test_legal_lists_stay_small() -> None:
    """At most 16 picks, or a piece's targets (27 for a queen) and the other picks, plus
    two claims, an offer or its answers, and resigning: a few hundred bytes."""
    worst = 0
    for seed in range(3):
        m = Match.start(GAME, 2, {}, seed)
        rng = random.Random(seed)
        while m.outcome() is None and len(m.steps) < 400:
            seat = m.to_act()[0]
            legal = m.legal(seat)
            worst = max(worst, len(json.dumps(to_wire(legal), separators=(",", ":"))))
            moves = [a for a in legal if not isinstance(a, (Resign, OfferDraw))]
            m.act(seat, moves[rng.randrange(len(moves))])
    assert 0 < worst < 2048


def test_presentation_descriptor_fits_the_game() -> None:
    p = GAME.info.presentation
    assert presentation_problems(p) == []
    m = random_move_game(77, {})
    rec = to_record(m)
    action_fields = {k for step in rec["steps"] if "action" in step
                     for k in step["action"]} - {"type"}
    view_fields = set(to_data(m.view(None)))
    assert all(z.field in view_fields for z in p.zones)
    assert all(set(g.fields) <= action_fields for g in p.gestures)
    assert p.seat_colours == ("white", "black")


def test_records_replay_through_the_registry_with_a_pinned_position() -> None:
    m = Match.start(GAME, 2, {"chess960": True}, 5)
    rec = json.loads(json.dumps(to_record(m, include_seed=False)))
    assert rec["steps"][0]["chance"]["type"] and "fen" in rec["steps"][0]["chance"]
    result = replay(rec)
    assert result.valid and result.match.view(None) == m.view(None)
    assert registry.get("chess") is GAME
