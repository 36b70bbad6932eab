"""Wizard's computer players: every level plays only legal actions to the end under every
option set; hard's deals of the unseen cards keep to what its seat knows (counts, cards seen,
voids shown); sure bids are bid; normal beats easy on pinned seeds. The published level order
and bid rates come from ``python -m bench.wizard_ai`` (docs/ai.md).
"""

from __future__ import annotations

import random

import pytest

from engine.match import Match
from engine.wizard import GAME, PLAYERS
from engine.wizard.ai import HardPlayer, sample_hands
from engine.wizard.state import DECK, Bid, is_plain
from tests.engine.level_play import play_levels
from tests.engine.wizard.scenario import bid_all, deal, play_all, start


def play(levels: tuple[str, ...], seed: int, options: dict[str, object]) -> Match:
    return play_levels(GAME, PLAYERS, levels, seed, options)


@pytest.mark.parametrize(("levels", "options"), [
    (("random", "easy", "normal", "hard"), {"rounds": "5"}),
    (("hard", "normal", "easy"), {"rounds": "5", "hidden_bids": True}),
    (("hard", "easy", "normal", "hard", "easy", "normal"), {"rounds": "5",
                                                            "screw_the_dealer": True}),
])
def test_every_level_plays_legally_to_the_end(levels: tuple[str, ...],
                                              options: dict[str, object]) -> None:
    assert play(levels, 3, options).outcome() is not None


def test_hard_deals_only_unseen_cards_and_respects_voids() -> None:
    m = start([["3S"], ["4S"], ["5S"], ["6S"]], "7S")
    bid_all(m, [0, 0, 0, 0])
    play_all(m, ["4S", "5S", "6S", "3S"])
    deal(m, [["AS", "KH"], ["KS", "W1"], ["QS", "2H"], ["JH", "N1"]], "2C")
    bid_all(m, [0, 0, 0, 0])
    m.act(2, m.legal(2)[0])  # QS led
    m.act(3, m.legal(3)[0])  # JH: seat 3 shows it has no spade
    view = m.view(0)
    seen = {"AS", "KH", "QS", "JH", "2C"}
    rng = random.Random(1)
    for _ in range(200):
        hands = sample_hands(view, rng)
        assert hands[0] == list(view.hand)
        assert [len(h) for h in hands] == list(view.hand_counts)
        dealt = [c for h in hands for c in h]
        assert len(set(dealt)) == len(dealt) and set(dealt) <= set(DECK)
        assert not seen & set(c for s in (1, 2, 3) for c in hands[s])
        assert not [c for c in hands[3] if is_plain(c) and c[1] == "S"]


def test_a_sure_trick_is_bid_and_a_jester_bids_nothing() -> None:
    for level in ("easy", "normal", "hard"):
        m = start([["2H"], ["W1"], ["N3"], ["KD"]], "5C")
        player = PLAYERS[level]
        assert player.choose(m.view(1), m.legal(1), random.Random(0)) == Bid(1), level
        m.act(1, Bid(1))
        assert player.choose(m.view(2), m.legal(2), random.Random(0)) == Bid(0), level


def test_hard_is_repeatable_from_its_generator() -> None:
    m = Match.start(GAME, 4, {}, 8)
    rng = random.Random(8)
    while m.state.round < 4:
        seat = m.to_act()[0]
        m.act(seat, PLAYERS["normal"].choose(m.view(seat), m.legal(seat), rng))
        m.resolve_chance()
    seat = m.to_act()[0]
    hard = HardPlayer()
    picks = {hard.choose(m.view(seat), m.legal(seat), random.Random(5)) for _ in range(3)}
    assert len(picks) == 1


def test_normal_beats_easy_by_mean_final_score() -> None:
    totals = {"normal": 0, "easy": 0}
    games = 24
    for g in range(games):
        levels = ("normal", "easy", "easy") if g % 3 == 0 else (
            ("easy", "normal", "easy") if g % 3 == 1 else ("easy", "easy", "normal"))
        o = play(levels, 900 + g, {"rounds": "10"}).outcome()
        assert o is not None
        totals["normal"] += o.scores[levels.index("normal")]
        totals["easy"] += sum(o.scores[s] for s in range(3) if levels[s] == "easy") // 2
    assert totals["normal"] > totals["easy"] + 10 * games, totals  # by 10 points a game
