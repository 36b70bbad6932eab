"""Kaiser's computer players: every level picks from the legal list all game long, the hard
player's deals keep what its seat knows (counts, voids, its own cards), its bidding follows
the hand, and the card-play heuristics feed the 5H to a partner and the 3S to an opponent.
Their strength against each other is measured by bench/bidding_ai.py (docs/ai.md)."""

from __future__ import annotations

import random

from engine.kaiser import GAME, PLAYERS
from engine.kaiser.ai import CARD, sample_hands, smart_card
from engine.kaiser.state import Bid, BidNoTrump, NameTrump, Pass, Play
from engine.match import Match
from engine.tricks import NO_TRUMP, SUIT_OF
from tests.engine.kaiser.scenario import JUNK, ONE_SUIT, auction, contract, deal_with
from tests.engine.level_play import play_levels


def test_every_level_plays_legal_moves_to_the_end() -> None:
    play_levels(GAME, PLAYERS, ("hard", "easy", "normal", "random"), 3, {"misdeal": True})


def test_the_hard_players_deals_keep_counts_voids_and_its_own_cards() -> None:
    m = Match.start(GAME, 4, {}, 0, resolve=False)
    m.apply_chance(deal_with(ONE_SUIT[0]))
    contract(m, BidNoTrump(7))
    m.act(0, Play("AS"))  # nobody else holds a spade: all three show out of spades
    for seat in (1, 2, 3):
        m.act(seat, m.legal(seat)[0])
    view = m.view(0)
    for seed in range(20):
        hands = sample_hands(view, random.Random(seed))
        assert sorted(hands[0]) == sorted(CARD[c] for c in view.hand)
        assert [len(h) for h in hands] == list(view.hand_counts)
        assert all(SUIT_OF[c] != 0 for s in (1, 2, 3) for c in hands[s])
        played = {CARD[p.card] for t in view.tricks for p in t.plays}
        assert not played & {c for h in hands for c in h}


def test_the_hard_player_bids_a_strong_hand_and_passes_a_junk_one() -> None:
    hard = PLAYERS["hard"]
    strong = ("AH", "KH", "QH", "JH", "TH", "5H", "AS", "AD")
    m = Match.start(GAME, 4, {}, 0, resolve=False)
    m.apply_chance(deal_with(strong))
    # The cheapest bid: a side scores what it takes whatever it bid, so bidding higher only
    # adds risk, until someone else's bid has to be beaten.
    assert hard.choose(m.view(0), m.legal(0), random.Random(1)) in (Bid(7), BidNoTrump(7))
    # The dealer holds all eight clubs (deal_with deals ONE_SUIT's leftovers in order): it
    # takes every trick leading them, so it outbids the 9 in no-trump, which doubles the 10.
    auction(m, Pass(), Bid(9), Pass())
    assert m.view(3).hand == ONE_SUIT[3]
    assert hard.choose(m.view(3), m.legal(3), random.Random(1)) == BidNoTrump(9)
    m = Match.start(GAME, 4, {}, 0, resolve=False)
    m.apply_chance(deal_with(JUNK))
    assert hard.choose(m.view(0), m.legal(0), random.Random(1)) == Pass()


def test_the_contract_holder_names_its_long_suit() -> None:
    m = Match.start(GAME, 4, {}, 0, resolve=False)
    m.apply_chance(deal_with(("AC", "KC", "QC", "JC", "TC", "9C", "AH", "5H")))
    auction(m, Bid(9), Pass(), Pass(), Pass())
    for level in ("easy", "normal", "hard"):
        assert PLAYERS[level].choose(m.view(0), m.legal(0), random.Random(0)) == NameTrump("C")


def test_the_5h_goes_to_a_winning_partner_and_the_3s_to_an_opponent() -> None:
    c = CARD.__getitem__
    # Seat 3 plays last; its partner (seat 1) holds the trick with the ace.
    trick = [(0, c("9H")), (1, c("AH")), (2, c("8H"))]
    assert smart_card([c("5H"), c("KH"), c("8S")], trick, NO_TRUMP, 3) == c("5H")
    # Void in the suit led, an opponent winning: the 3S goes on their trick.
    trick = [(0, c("AD")), (1, c("8D")), (2, c("9D"))]
    assert smart_card([c("3S"), c("KH"), c("8S")], trick, NO_TRUMP, 3) == c("3S")
