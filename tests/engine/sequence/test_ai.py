"""Sequence's computer players: legal, reproducible, and sensible in the positions that matter.

Strength over hundreds of games is a measurement (bench/sequence_ai.py, docs/ai.md), not a
test; here are pinned positions and a small fixed-seed smoke run.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import ai
from engine.match import Match
from engine.selfplay import play as selfplay
from engine.sequence import GAME, PLAYERS
from engine.sequence.data import ExchangeDead, Place, Remove, Wild
from engine.sequence.sampling import Sampler
from tests.engine.sequence.scenario import alternate, at, play, scripted
from tests.engine.sequence.test_rules import FILLER1

LEVELS = ("random", "easy", "normal", "hard")
THINKERS = ("normal", "hard")


def choose(level: str, m: Match, seed: int = 0) -> Any:
    seat = m.to_act()[0]
    return PLAYERS[level].choose(m.view(seat), m.legal(seat), random.Random(seed))


def test_every_level_is_registered() -> None:
    assert tuple(PLAYERS) == LEVELS
    for level in LEVELS:
        assert ai.player("sequence", level).level == level


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("players", "options"), [
    (2, {}), (3, {"captures": True}), (4, {"doubles": True, "fill_board": True})])
def test_every_level_plays_legal_moves_reproducibly(level: str, players: int,
                                                    options: dict[str, object]) -> None:
    m = Match.start(GAME, players, options, seed=3)
    rng = random.Random(1)
    for _ in range(40):
        if m.outcome() is not None:
            break
        seat = m.to_act()[0]
        view, legal = m.view(seat), m.legal(seat)
        a = PLAYERS[level].choose(view, legal, random.Random(7))
        assert a in legal
        assert PLAYERS[level].choose(view, legal, random.Random(7)) == a  # same seed, same move
        m.act(seat, legal[rng.randrange(len(legal))])
        m.resolve_chance()


FOUR = [at(8, c) for c in range(4)]  # AC 7S 6S 5S; the fifth square, (8,4), is 4S


def _four_on_row8(extra: dict[int, list[str]], *, seat0_to_move: bool) -> Match:
    """Seat 0 has (8,0)..(8,3) with sequences to win 1; then seat 1 or seat 0 is to move."""
    moves = alternate(FOUR, FILLER1[:4])
    far = ["QC", "QC", "KC", "KC", "QD", "QD", "KD", "KD", "TC", "TC", "9C", "9C"]
    m = scripted(2, moves, {"sequences_to_win": 1}, extra=extra, filler=far)
    play(m, moves if seat0_to_move else moves[:-1])
    return m


@pytest.mark.parametrize("level", THINKERS)
def test_a_winning_move_is_taken(level: str) -> None:
    m = _four_on_row8({0: ["4S", "JD"]}, seat0_to_move=True)
    a = choose(level, m)
    after = GAME.apply(m.state, 0, a)
    assert after.result is not None and after.result.winners == (0,)


@pytest.mark.parametrize("level", THINKERS)
def test_a_winning_four_is_blocked_with_the_card(level: str) -> None:
    m = _four_on_row8({1: ["4S"]}, seat0_to_move=False)
    assert choose(level, m) == Place("4S", 8, 4)


@pytest.mark.parametrize("level", THINKERS)
def test_a_winning_four_it_cannot_block_is_broken_with_a_one_eyed_jack(level: str) -> None:
    m = _four_on_row8({1: ["JS"]}, seat0_to_move=False)
    assert "4S" not in [c.card for c in m.view(1).hand]
    a = choose(level, m)
    assert isinstance(a, Remove) and a.row == 8 and 0 <= a.col <= 3


def test_hard_keeps_its_wild_jack_early_on() -> None:
    moves = [(0, at(8, 0)), (1, at(1, 0))]
    m = scripted(2, moves, extra={0: ["JD"]})
    assert not isinstance(choose("hard", m), Wild)


@pytest.mark.parametrize("level", THINKERS)
def test_dead_cards_are_exchanged_first(level: str) -> None:
    moves = [(0, Place("5D", 2, 5)), (1, Wild("JD", 8, 9))]
    m = scripted(2, moves, extra={0: ["5D"]})
    play(m, moves)
    assert choose(level, m) == ExchangeDead("5D")


def test_the_sampler_keeps_what_the_view_shows() -> None:
    m = Match.start(GAME, 4, None, seed=9)
    for _ in range(12):
        seat = m.to_act()[0]
        m.act(seat, m.legal(seat)[0])
        m.resolve_chance()
    seat = m.to_act()[0]
    view = m.view(seat)
    sampler = Sampler(view)
    for k in range(5):
        st = sampler.sample(random.Random(k))
        assert GAME.view(st, seat) == view  # everything the seat sees is as it was
        assert GAME.legal_actions(st, seat) == m.legal(seat)


def test_normal_beats_random_in_a_fixed_seed_smoke_run() -> None:
    wins = 0
    for seed in range(10):
        levels = ["normal", "random"] if seed % 2 == 0 else ["random", "normal"]
        r = selfplay("sequence", 2, None, levels, 500 + seed)
        wins += "normal" in r.winning_levels()
    assert wins >= 8
