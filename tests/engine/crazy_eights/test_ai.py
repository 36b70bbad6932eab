"""Crazy Eights computer players: every level plays only legal actions under every toggle,
normal beats easy on pinned seeds, and the normal habits (keep eights, shed high cards, name
the longest suit) hold. The published figures come from ``python -m bench.draw_ai``.
"""

from __future__ import annotations

import random

import pytest

from engine.crazy_eights import GAME, PLAYERS
from engine.crazy_eights.ai import longest_suit, normal_card
from engine.match import Match

OPTION_SETS = [{"target": 30}, {"target": 30, "draw": "one", "draw_when_able": False},
               {"target": 30, "scoring": "penalty", "reshuffle": False}]


def play(levels: tuple[str, ...], seed: int, options: dict[str, object]) -> Match:
    m = Match.start(GAME, len(levels), options, seed)
    rngs = [random.Random(seed * 31 + s) for s in range(len(levels))]
    for _ in range(5000):
        if m.outcome() is not None:
            break
        seat = m.to_act()[0]
        legal = m.legal(seat)
        action = PLAYERS[levels[seat]].choose(m.view(seat), legal, rngs[seat])
        assert action in legal
        m.act(seat, action)
        m.resolve_chance()
    assert m.outcome() is not None
    return m


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_level_plays_legally_to_the_end(options: dict[str, object]) -> None:
    play(("easy", "normal", "hard"), 3, options)


def test_normal_beats_easy_heads_up() -> None:
    wins = 0
    games = 24
    for g in range(games):
        levels = ("normal", "easy") if g % 2 == 0 else ("easy", "normal")
        o = play(levels, 500 + g, {"target": 100}).outcome()
        assert o is not None
        wins += o.winners == (levels.index("normal"),)
    assert wins >= 16, wins  # 0.85 over 40 games in bench.draw_ai


def test_normal_habits() -> None:
    hand = ["8S", "KH", "3H", "4H", "QC"]
    assert normal_card(hand, ["8S", "KH", "3H"]) == "KH"  # highest, the eight kept
    assert normal_card(hand, ["8S"]) == "8S"
    assert longest_suit(["8S", "8D", "2C", "KH", "3H", "4H"]) == "H"
