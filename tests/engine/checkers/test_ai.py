"""Checkers' computer players: legal, reproducible, finishing a half-entered move, winning the
endings they should, claiming draws only when not ahead, and ordered by strength.

Strength over hundreds of games is a measurement (bench/checkers.py, docs/rules/checkers.md);
here a few fixed-seed games run in ``make test`` and a larger sample is marked slow.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.checkers import GAME, PLAYERS
from engine.checkers.ai import HardPlayer
from engine.checkers.state import ClaimDraw, MoveTo, Pick
from engine.match import Match
from tests.engine.checkers.scenario import from_fen

LEVELS = ("random", "easy", "normal", "hard")


def choose(level: str, m: Match, seed: int = 0) -> Any:
    seat = m.to_act()[0]
    return PLAYERS[level].choose(m.view(seat), m.legal(seat), random.Random(seed))


def play_out(m: Match, levels: tuple[str, str], seed: int, max_steps: int = 3000) -> Match:
    rngs = [random.Random(f"{seed}:{s}") for s in range(2)]
    for _ in range(max_steps):
        if m.outcome() is not None:
            return m
        seat = m.to_act()[0]
        legal = m.legal(seat)
        action = PLAYERS[levels[seat]].choose(m.view(seat), legal, rngs[seat])
        assert action in legal
        m.act(seat, action)
    raise AssertionError("game did not end")


def test_every_level_is_there() -> None:
    assert tuple(PLAYERS) == LEVELS
    assert all(PLAYERS[lv].level == lv for lv in LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_legal_and_reproducible(level: str) -> None:
    """The first steps of a game, twice from the same seeds: the same actions."""
    runs = []
    steps = 16 if level == "hard" else 60
    for _ in range(2):
        m = Match.start(GAME, 2, {"ballot": True}, 3)
        rngs = [random.Random(3), random.Random(4)]
        for _ in range(steps):
            if m.outcome() is not None:
                break
            seat = m.to_act()[0]
            legal = m.legal(seat)
            action = PLAYERS[level if seat == 0 else "easy"].choose(m.view(seat), legal,
                                                                   rngs[seat])
            assert action in legal
            m.act(seat, action)
        runs.append([getattr(s, "action", None) for s in m.steps])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_finishes_a_half_entered_move(level: str) -> None:
    # Someone picked 9 and jumped to 18; the player taking over goes on to 27 (the only way).
    m = from_fen("B:W14,19,23,30:B9,15")
    m.act(0, Pick(9))
    m.act(0, MoveTo(18))
    assert choose(level, m) == MoveTo(27)
    # Someone picked 15 in the start-like position: the player moves that piece.
    m = from_fen("B:W21,22,23,24:B15,1")
    m.act(0, Pick(15))
    assert choose(level, m) in (MoveTo(18), MoveTo(19))


@pytest.mark.parametrize("fen", [
    "B:WK32:BK14,K15",  # two kings against one in the double corner
    "W:WK28:BK1,K10",
    "B:WK5:BK19,K23,K27",
    "B:W27,26:BK9,K10,K18",  # kings against men
])
def test_hard_wins_the_won_endings(fen: str) -> None:
    m = play_out(from_fen(fen), ("hard", "hard"), 1)
    o = m.outcome()
    assert o is not None and o.winners == (0,), (fen, o)
    assert m.state.quiet < 80  # well inside the forty-move rule


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_sees_the_sacrifice_that_wins(level: str) -> None:
    # Found by exhaustive search six moves deep: 9-13 gives a man but comes out ahead; every
    # other move loses at least a man. One move deep, 9-13 looks like the worst.
    m = from_fen("B:W6,14,18,29:B9,21,24,28")
    assert choose(level, m) == Pick(9)
    m.act(0, Pick(9))
    assert choose(level, m) == MoveTo(13)


def test_claims_a_draw_when_not_ahead_only() -> None:
    # Equal: a king each, the forty moves are up: claim.
    m = from_fen("B:WK32:BK1", {"draw_rules": "claim"}, quiet=80)
    assert ClaimDraw("forty_moves") in m.legal(0)
    assert choose("hard", m) == ClaimDraw("forty_moves")
    # Ahead, with a man's move that starts the count again (the other side could claim next
    # turn otherwise, so only a move that resets it is worth playing on with): play on.
    m = from_fen("B:WK32:BK1,K9,12", {"draw_rules": "claim"}, quiet=80)
    assert ClaimDraw("forty_moves") in m.legal(0)
    assert choose("hard", m) == Pick(12)


def tally(first: str, second: str, games: int, seed: int) -> dict[str, int]:
    """Ballot games, colours alternated: ``first`` on dark for even game numbers."""
    out = {"win": 0, "draw": 0, "loss": 0}
    for i in range(games):
        levels = (first, second) if i % 2 == 0 else (second, first)
        m = play_out(Match.start(GAME, 2, {"ballot": True}, seed + i), levels, seed + i)
        o = m.outcome()
        assert o is not None
        out["draw" if o.draw else "win" if levels[o.winners[0]] == first else "loss"] += 1
    return out


def test_a_lighter_hard_beats_easy_smoke() -> None:
    """The hard player's search on a fifth of its budget, one game each way round (the real
    level's figures: the slow tests below and bench/checkers.py)."""
    light = HardPlayer(nodes=5_000)
    out = []
    for i in range(2):
        bots = (light, PLAYERS["easy"]) if i == 0 else (PLAYERS["easy"], light)
        m = Match.start(GAME, 2, {"ballot": True}, 40 + i)
        rngs = [random.Random(i), random.Random(i + 10)]
        while m.outcome() is None:
            seat = m.to_act()[0]
            m.act(seat, bots[seat].choose(m.view(seat), m.legal(seat), rngs[seat]))
        o = m.outcome()
        assert o is not None
        out.append(o.winners)
    assert out == [(0,), (1,)]


def test_normal_beats_easy_smoke() -> None:
    t = tally("normal", "easy", 4, 1)
    assert t["win"] >= 3


@pytest.mark.slow
def test_hard_beats_easy_in_95_percent() -> None:
    t = tally("hard", "easy", 40, 1000)
    assert t["win"] >= 38, t


@pytest.mark.slow
def test_hard_beats_normal_in_a_majority() -> None:
    t = tally("hard", "normal", 20, 2000)
    assert t["win"] > 10 and t["loss"] < t["win"], t
