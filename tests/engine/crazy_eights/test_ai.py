"""Crazy Eights computer players: every level plays only legal actions under every toggle,
normal beats easy on pinned seeds, the normal habits (keep eights, shed high cards, name
the longest suit) hold, and hard deals only worlds its seat's knowledge allows and leads
into the suits others have shown they lack. The published figures come from ``python -m bench.draw_ai``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.crazy_eights import GAME, PLAYERS
from engine.crazy_eights.ai import (
    deal_world,
    hard_card,
    hard_suit,
    longest_suit,
    normal_card,
    shown_voids,
    unseen_cards,
)
from engine.crazy_eights.state import DRAW, PASS
from engine.match import Match
from tests.engine.crazy_eights.scenario import start
from tests.engine.level_play import play_levels

OPTION_SETS = [{"target": 30}, {"target": 30, "draw": "one", "draw_when_able": False},
               {"target": 30, "scoring": "penalty", "reshuffle": False}]


def play(levels: tuple[str, ...], seed: int, options: dict[str, object]) -> Match:
    return play_levels(GAME, PLAYERS, levels, seed, options, max_steps=5000)


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
    assert wins >= 16, wins  # 0.80 over 100 games in bench.draw_ai


def test_normal_habits() -> None:
    hand = ["8S", "KH", "3H", "4H", "QC"]
    assert normal_card(hand, ["8S", "KH", "3H"]) == "KH"  # highest, the eight kept
    assert normal_card(hand, ["8S"]) == "8S"
    assert longest_suit(["8S", "8D", "2C", "KH", "3H", "4H"]) == "H"


def test_hard_deals_only_worlds_its_knowledge_allows() -> None:
    # Seat 1 (clubs only) draws three on the KH and passes: it holds no heart and no eight
    # among the seven cards it had, whatever the three it drew are.
    m = start([["2S", "3S", "4S", "5S", "6S", "7S", "9S"],
               ["3C", "4C", "5C", "6C", "7C", "9C", "TC"]],
              ["KH", "2D", "3D", "4D", "QH", "6D"], {"draw": "three"})
    for _ in range(3):
        m.act(1, DRAW)
    m.act(1, PASS)
    v = m.view(0)
    assert shown_voids(v) == "H" and v.drawn_since[1] == 3
    unseen = unseen_cards(v)
    rng = random.Random(4)
    for _ in range(200):
        hands, stock = deal_world(v, 0, unseen, rng)
        assert hands[0] == list(v.hand) and len(hands[1]) == 10
        assert Counter(hands[1] + stock) == Counter(unseen)
        plain = [c for c in hands[1] if c[1] != "H" and c[0] != "8"]
        assert len(plain) >= 10 - 3


def test_hard_leads_into_a_suit_another_seat_lacks() -> None:
    hand = ["KS", "3H", "4H", "5H", "3D"]
    # Without knowledge: the suit most held (hearts) before the higher spade.
    assert hard_card(hand, ["KS", "3H"], "") == "3H"
    # The opponent drew on spades: keep it in spades.
    assert hard_card(hand, ["KS", "3H"], "S") == "KS"
    assert hard_suit(["8C", "2H", "3H", "4H", "5D"], "") == "H"
    assert hard_suit(["8C", "2H", "3H", "4H", "5D"], "D") == "D"
