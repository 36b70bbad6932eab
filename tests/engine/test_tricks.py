"""The shared trick-taking machinery (engine/tricks.py): card tables with and without bowers,
the trick's winner, following suit on masks, legal plays from a mask, the shuffle, and the
deal of unseen cards that keeps counts, voids and known cards."""

from __future__ import annotations

import random
from collections import Counter

from engine.tricks import (
    BIT,
    NO_TRUMP,
    SUIT_OF,
    CardTables,
    byte_table,
    deal_unseen,
    follow,
    mask_actions,
    replace_seat,
    shuffled_order,
)

PLAIN = CardTables.build(("789TJQKA",) * 4)


def ids(*codes: str) -> list[int]:
    return [PLAIN.card[c] for c in codes]


def test_cards_are_one_suit_per_byte_low_to_high() -> None:
    assert PLAIN.codes[0] == "7S" and PLAIN.codes[7] == "AS" and PLAIN.codes[8] == "7H"
    assert PLAIN.codes[31] == "AC" and SUIT_OF[PLAIN.card["9D"]] == 2
    kaiser = CardTables.build(("389TJQKA", "589TJQKA", "789TJQKA", "789TJQKA"))
    assert kaiser.codes[0] == "3S" and kaiser.codes[8] == "5H"
    assert PLAIN.mask(["7S", "AC"]) == BIT[0] | BIT[31]


def test_the_highest_of_the_suit_led_wins_unless_a_trump_is_played() -> None:
    trick = ids("9H", "AS", "KH", "7D")
    assert PLAIN.winner(NO_TRUMP, trick) == 2  # the AS is off-suit: it cannot win
    assert PLAIN.winner(0, trick) == 1  # spades trump: the AS takes it
    assert PLAIN.winner(2, trick) == 3  # the lowest trump beats the highest plain card
    assert PLAIN.winner(1, trick) == 2  # hearts led and trump: the KH
    led = PLAIN.esuit[NO_TRUMP][trick[0]]
    assert PLAIN.power[NO_TRUMP][led][PLAIN.card["AS"]] == 0


def test_a_game_with_bowers_changes_suit_and_rank_under_trump() -> None:
    jack = 4

    def esuit(trump: int, card: int) -> int:
        return trump if card == (3 - trump) * 8 + jack else SUIT_OF[card]

    def rank(trump: int, card: int) -> int:
        if card == trump * 8 + jack:
            return 9
        if card == (3 - trump) * 8 + jack:
            return 8
        r = card % 8
        return r if r < jack else r - 1

    t = CardTables.build(("789TJQKA",) * 4, esuit, rank)
    js, jc, as_ = t.card["JS"], t.card["JC"], t.card["AS"]
    assert t.esuit[0][jc] == 0 and t.esuit[NO_TRUMP][jc] == 3  # the left bower is a spade
    assert t.winner(0, [as_, jc, js]) == 2 and t.winner(0, [as_, jc]) == 1
    assert t.suit_mask[0][0] & BIT[jc] and not t.suit_mask[0][3] & BIT[jc]
    assert t.strength[0][js] > t.strength[0][jc] > t.strength[0][as_] > t.strength[0][t.card["AH"]]


def test_follow_suit_if_able() -> None:
    hand = PLAIN.mask(["AS", "7S", "KH"])
    spades = PLAIN.suit_mask[NO_TRUMP][0]
    diamonds = PLAIN.suit_mask[NO_TRUMP][2]
    assert follow(hand, spades) == PLAIN.mask(["AS", "7S"])
    assert follow(hand, diamonds) == hand
    assert follow(hand, 0) == hand  # leading: anything


def test_legal_plays_of_a_mask_are_its_cards_in_order() -> None:
    actions = [("play", c) for c in PLAIN.codes]
    table = byte_table(actions)
    mask = PLAIN.mask(["AC", "7S", "QH", "8D"])
    assert mask_actions(table, mask) == tuple(("play", c) for c in ("7S", "QH", "8D", "AC"))
    assert mask_actions(table, 0) == ()


def test_the_shuffle_is_a_permutation_fixed_by_the_generator_and_even() -> None:
    order = shuffled_order(32, random.Random(1))
    assert sorted(order) == list(range(32))
    assert order == shuffled_order(32, random.Random(1)) != shuffled_order(32, random.Random(2))
    rng = random.Random(3)
    seen = Counter(tuple(shuffled_order(3, rng)) for _ in range(6000))
    assert len(seen) == 6 and min(seen.values()) > 800  # 1000 expected each


def test_replace_seat() -> None:
    assert replace_seat((1, 2, 3, 4), 2, 9) == (1, 2, 9, 4)
    assert replace_seat(((), ()), 0, ("AS",)) == (("AS",), ())


def test_an_unseen_deal_keeps_counts_voids_and_known_cards() -> None:
    mine = PLAIN.mask(["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"])
    fixed = (0, PLAIN.mask(["7H"]), 0, 0)
    unknown = ((1 << 32) - 1) & ~mine & ~fixed[1]
    suits = PLAIN.suit_mask[NO_TRUMP]
    voids = (0, 0, 1 << 2, 1 << 1)  # seat 2 showed out of diamonds, seat 3 of hearts
    need = (0, 7, 8, 8)
    for seed in range(50):
        hands = deal_unseen(0, mine, unknown, need, voids, suits, fixed, random.Random(seed))
        assert hands[0] == mine and hands[1] & fixed[1]
        assert [h.bit_count() for h in hands] == [8, 8, 8, 8]
        assert not hands[2] & suits[2] and not hands[3] & suits[1]
        assert hands[1] | hands[2] | hands[3] == unknown | fixed[1]


def test_an_impossible_set_of_voids_is_dropped_rather_than_fail() -> None:
    suits = PLAIN.suit_mask[NO_TRUMP]
    unknown = suits[0]  # only spades are left, but seat 1 showed out of spades
    hands = deal_unseen(0, 0, unknown, (0, 4, 4, 0), (0, 1, 0, 0), suits, (0, 0, 0, 0),
                        random.Random(0), tries=3)
    assert hands[1].bit_count() == hands[2].bit_count() == 4 and hands[1] | hands[2] == unknown
