"""Crazy Eights rules, one pinned deal per rule and scoring line (docs/rules/crazy_eights.md).

Covers the edge cases games-rules.md lists: the starter eight is buried, an eight on an eight
names afresh, naming the current suit is allowed, drawing stops with the stock and its
reshuffle source both empty, a fully blocked table is detected and scored, and the voluntary
draw toggle (the original app forced a play).
"""

from __future__ import annotations

import pytest

from engine.crazy_eights import GAME
from engine.crazy_eights.rules import CANNOT_DRAW, CANNOT_PASS, NO_MATCH, NOT_IN_HAND, STALL_LAPS
from engine.crazy_eights.state import DRAW, PASS, Deal, NameSuit, Play, Reshuffle, value
from engine.errors import BAD_CHANCE, NOT_YOUR_TURN, IllegalAction, OptionError
from engine.match import Match
from tests.engine.crazy_eights.scenario import deal_for, start

# Heads-up: 7 cards each. Seat 0 deals the first round, so seat 1 acts first.
H0 = ["2S", "3S", "4S", "5S", "6S", "7S", "9S"]
H1 = ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]


def test_hand_sizes_and_decks() -> None:
    for n, size, cards in ((2, 7, 52), (3, 5, 52), (5, 5, 52), (6, 5, 104)):
        m = Match.start(GAME, n, {}, 1)
        v = m.view(0)
        assert v.hand_counts == (size,) * n
        assert sum(v.hand_counts) + v.stock_count + len(v.discard) == cards


def test_a_starter_eight_is_buried_and_the_next_card_turned() -> None:
    m = start([H0, H1], ["8C", "8D", "KC", "QC"])
    v = m.view(None)
    assert v.discard == ("KC",) and v.suit == "C"
    # Both eights went to the bottom of the stock, in order.
    assert m.state.stock[-2:] == ("8C", "8D") and m.state.stock[0] == "QC"


def test_match_rank_or_suit_or_an_eight() -> None:
    m = start([H0, ["2H", "3H", "4H", "5C", "6H", "7H", "8H"]], ["5D"])
    legal = m.legal(1)
    assert Play("5C") in legal and Play("8H") in legal and Play("2H") not in legal
    with pytest.raises(IllegalAction) as e:
        m.act(1, Play("2H"))
    assert e.value.code == NO_MATCH
    with pytest.raises(IllegalAction) as e:
        m.act(1, Play("2S"))
    assert e.value.code == NOT_IN_HAND
    with pytest.raises(IllegalAction) as e:
        m.act(0, DRAW)
    assert e.value.code == NOT_YOUR_TURN


def test_an_eight_names_a_suit_and_an_eight_on_an_eight_names_afresh() -> None:
    h0 = ["2S", "3S", "4S", "5S", "6S", "8S", "9S"]
    m = start([h0, H1], ["5D"])
    m.act(1, Play("8H"))
    assert m.to_act() == (1,) and m.legal(1) == tuple(NameSuit(s) for s in "SHDC")
    m.act(1, NameSuit("C"))
    assert m.view(0).suit == "C"
    # Only clubs or an eight now: the eight's own rank does not open hearts or eights' suit.
    assert [a for a in m.legal(0) if isinstance(a, Play)] == [Play("8S")]
    m.act(0, Play("8S"))
    m.act(0, NameSuit("S"))  # the new nomination replaces the old one
    v = m.view(1)
    assert v.suit == "S" and v.discard[-2:] == ("8H", "8S")


def test_naming_the_current_suit_is_allowed() -> None:
    m = start([H0, H1], ["9H"])
    m.act(1, Play("8H"))
    assert NameSuit("H") in m.legal(1)
    m.act(1, NameSuit("H"))
    assert m.view(0).suit == "H" and m.view(0).last.suit == "H"


def test_voluntary_draw_by_default() -> None:
    m = start([H0, H1], ["9H", "KD", "QD"])
    legal = m.legal(1)
    assert Play("2H") in legal and DRAW in legal and PASS not in legal
    m.act(1, DRAW)  # drawing with a playable card in hand
    assert m.view(1).hand_counts == (7, 8)


def test_must_play_if_able_when_voluntary_draw_is_off() -> None:
    m = start([H0, H1], ["9H", "KH", "QD"], {"draw_when_able": False})
    assert DRAW not in m.legal(1) and PASS not in m.legal(1)
    with pytest.raises(IllegalAction) as e:
        m.act(1, DRAW)
    assert e.value.code == CANNOT_DRAW
    m.act(1, Play("2H"))
    # Seat 0 has no heart nor two: it must draw, and then must play the heart it drew.
    assert m.legal(0) == (Play("2S"),)  # the 2S matches the rank: no draw, no pass
    m2 = start([["3S", "4S", "5S", "6S", "7S", "9S", "TS"], H1], ["9H", "KH", "QD"],
               {"draw_when_able": False})
    m2.act(1, Play("2H"))
    assert m2.legal(0) == (DRAW,)
    m2.act(0, DRAW)  # the KH
    assert m2.legal(0) == (Play("KH"),)
    with pytest.raises(IllegalAction) as e:
        m2.act(0, PASS)
    assert e.value.code == CANNOT_PASS


@pytest.mark.parametrize(("rule", "limit"), [("one", 1), ("three", 3)])
def test_draw_at_most_one_or_three_then_pass(rule: str, limit: int) -> None:
    hand = ["3C", "4C", "5C", "6C", "7C", "9C", "TC"]
    m = start([H0, hand], ["KH", "2D", "3D", "4D", "5D", "6D"], {"draw": rule})
    for _ in range(limit):
        assert m.legal(1) == (DRAW,)
        m.act(1, DRAW)
    assert DRAW not in m.legal(1) and PASS in m.legal(1)
    m.act(1, PASS)
    assert m.to_act() == (0,) and m.view(0).hand_counts == (7, 7 + limit)


def test_draw_until_playable_keeps_drawing_until_a_card_goes() -> None:
    hand = ["3C", "4C", "5C", "6C", "7C", "9C", "TC"]
    m = start([H0, hand], ["KH", "2D", "3D", "4D", "QH", "6D"], {"draw_when_able": False})
    for _ in range(3):
        assert m.legal(1) == (DRAW,)
        m.act(1, DRAW)
    assert m.legal(1) == (DRAW,)
    m.act(1, DRAW)  # the QH matches the suit
    assert m.legal(1) == (Play("QH"),)


def test_the_stock_is_rebuilt_from_the_discards_under_the_top_card() -> None:
    m = start([H0, H1], ["9H", "KH"])
    stock = list(m.state.stock)
    m.state = m.state._replace(stock=())  # empty it through the rules' own data
    m.state = m.state._replace(discard=("9D", "JD", "9H"))
    assert m.to_act() == () and m.chance_pending()
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(Reshuffle(("9D", "9H")))
    assert e.value.code == BAD_CHANCE
    m.apply_chance(Reshuffle(("JD", "9D")))
    assert m.state.stock == ("JD", "9D") and m.view(None).discard == ("9H",)
    assert stock  # there was a stock before


def test_without_reshuffle_an_empty_stock_means_pass_and_a_blocked_round() -> None:
    # Winner-collects: a blocked round is scored by the lowest hand, the difference.
    h0 = ["2S", "3S", "4S", "5S", "6S", "7S", "9S"]  # 36
    h1 = ["2C", "3C", "4C", "5C", "6C", "7C", "KC"]  # 37
    m = start([h0, h1], ["JH"], {"reshuffle": False})
    m.state = m.state._replace(stock=())
    assert m.legal(1) == (PASS,)
    m.act(1, PASS)
    assert m.legal(0) == (PASS,)
    m.act(0, PASS)  # every player passed in turn: blocked
    v = m.view(None)
    assert v.blocked and v.phase == "between"
    assert v.round_points == (1, 0) and v.totals == (1, 0)


def test_a_blocked_round_with_equal_lowest_hands_scores_nothing() -> None:
    h0 = ["2S", "3S", "4S", "5S", "6S", "7S", "9S"]
    h1 = ["2C", "3C", "4C", "5C", "6C", "7C", "9C"]
    m = start([h0, h1], ["JH"], {"reshuffle": False})
    m.state = m.state._replace(stock=())
    m.act(1, PASS)
    m.act(0, PASS)
    assert m.view(None).round_points == (0, 0)


def test_card_values() -> None:
    assert [value(c) for c in ("8S", "KS", "QS", "JS", "TS", "AS", "9S", "2S")] == [
        50, 10, 10, 10, 10, 1, 9, 2]


def test_the_winner_collects_the_others_cards() -> None:
    h1 = ["2H", "3D", "4D", "5D", "6D", "7D", "9D"]
    h0 = ["8S", "KS", "AS", "2C", "3C", "4C", "5C"]  # 50 + 10 + 1 + 14 = 75
    m = start([h0, h1], ["9H"], {"target": 500})
    m.state = m.state._replace(hands=(m.state.hands[0], ("2H",)))
    m.act(1, Play("2H"))
    v = m.view(None)
    assert v.round_points == (0, 75) and v.totals == (0, 75) and v.phase == "between"


def test_penalty_scoring_lowest_total_wins() -> None:
    h0 = ["8S", "KS", "AS", "2C", "3C", "4C", "5C"]
    m = start([h0, H1], ["9H"], {"scoring": "penalty", "target": 60})
    m.state = m.state._replace(hands=(m.state.hands[0], ("2H",)))
    m.act(1, Play("2H"))
    o = m.outcome()
    assert o is not None and o.scores == (75, 0) and o.winners == (1,)
    assert o.reason == "crazy_eights.fewest_points"


def test_the_game_ends_when_a_total_reaches_the_target() -> None:
    h0 = ["8S", "KS", "AS", "2C", "3C", "4C", "5C"]
    m = start([h0, H1], ["9H"], {"target": 75})
    m.state = m.state._replace(hands=(m.state.hands[0], ("2H",)))
    m.act(1, Play("2H"))
    o = m.outcome()
    assert o is not None and o.winners == (1,) and o.reason == "crazy_eights.most_points"
    assert m.legal(0) == () and m.legal(1) == ()


def test_going_out_on_an_eight_names_no_suit() -> None:
    m = start([H0, H1], ["9H"], {"target": 500})
    m.state = m.state._replace(hands=(m.state.hands[0], ("8H",)))
    m.act(1, Play("8H"))
    assert m.view(None).phase == "between"


def test_bad_deals_and_options_are_refused() -> None:
    m = Match.start(GAME, 2, {}, 0, resolve=False)
    good = deal_for(2, [H0, H1], ["9H"])
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(Deal((*good.cards[:-1], "AS")))
    assert e.value.code == BAD_CHANCE
    for bad in ({"draw": "two"}, {"scoring": "most"}, {"target": 0}, {"reshuffle": "maybe"},
                {"jokers": True}):
        with pytest.raises(OptionError):
            GAME.validate(2, bad)
    with pytest.raises(OptionError):
        GAME.validate(7, {})


def test_two_decks_from_the_threshold_players() -> None:
    # Default threshold six: five players share one deck, six two.
    for n, opts, cards in ((5, {}, 52), (6, {}, 104), (3, {"two_decks_from": 3}, 104),
                           (6, {"two_decks_from": 7}, 52)):
        m = Match.start(GAME, n, opts, 2)
        v = m.view(0)
        assert v.decks == cards // 52
        assert sum(v.hand_counts) + v.stock_count + len(v.discard) == cards
    for bad in (1, 8):
        with pytest.raises(OptionError):
            GAME.validate(4, {"two_decks_from": bad})


def test_blocked_with_reshuffle_on_when_the_pile_cannot_rebuild_the_stock() -> None:
    # The stock is empty and the discard pile is only its top card: nothing to reshuffle, so
    # nobody may draw and a round where everyone passes in turn is blocked.
    h0 = ["2S", "3S", "4S", "5S", "6S", "7S", "9S"]
    h1 = ["2C", "3C", "4C", "5C", "6C", "7C", "KC"]
    m = start([h0, h1], ["JH"])
    m.state = m.state._replace(stock=())
    assert not m.chance_pending() and m.legal(1) == (PASS,)
    m.act(1, PASS)
    m.act(0, PASS)
    v = m.view(None)
    assert v.blocked and v.round_points == (1, 0)
    caps = [c.key for c in GAME.common(v).captions]
    assert "crazy_eights.blocked" in caps


def test_a_pass_with_stock_left_does_not_count_towards_a_block() -> None:
    hand = ["3C", "4C", "5C", "6C", "7C", "9C", "TC"]
    m = start([H0, hand], ["KH", "2D", "3D"], {"draw": "one"})
    m.act(1, DRAW)
    m.act(1, PASS)  # the stock is not empty: no count towards a block
    assert m.state.passes == 0 and m.view(None).phase == "play"


def test_a_blocked_round_in_penalty_scoring_scores_every_hand() -> None:
    h0 = ["2S", "3S", "4S", "5S", "6S", "7S", "9S"]  # 36
    h1 = ["2C", "3C", "4C", "5C", "6C", "7C", "KC"]  # 37
    m = start([h0, h1], ["JH"], {"reshuffle": False, "scoring": "penalty", "target": 500})
    m.state = m.state._replace(stock=())
    m.act(1, PASS)
    m.act(0, PASS)
    v = m.view(None)
    assert v.blocked and v.round_points == (36, 37) and v.totals == (36, 37)


def test_a_blocked_round_with_three_players_pays_the_lowest_the_differences() -> None:
    h = [["2S", "3S", "4S", "5S", "6S"],  # 20
         ["2C", "3C", "4C", "5C", "KC"],  # 24
         ["AD", "2D", "3D", "4D", "5D"]]  # 15
    m = start(h, ["JH"], {"reshuffle": False})
    m.state = m.state._replace(stock=())
    for seat in (1, 2, 0):
        m.act(seat, PASS)
    assert m.view(None).round_points == (0, 0, (20 - 15) + (24 - 15))


def test_draws_and_passes_are_recorded_publicly_for_every_seat() -> None:
    hand = ["3C", "4C", "5C", "6C", "7C", "9C", "TC"]
    m = start([H0, hand], ["KH", "2D", "3D", "4D", "QH", "6D"], {"draw": "three"})
    for _ in range(3):
        m.act(1, DRAW)
    m.act(1, PASS)
    for seat in (None, 0, 1):
        v = m.view(seat)
        assert v.declined == ("", "H") and v.drawn_since == (0, 3)
    # Seat 0 draws the QH on the KH and plays it: a card of its declined suit, so one of
    # those drawn since, and one card fewer is unproven.
    assert m.legal(0) == (DRAW,)
    m.act(0, DRAW)
    assert m.view(None).declined[0] == "H" and m.view(None).drawn_since[0] == 1
    m.act(0, Play("QH"))
    assert m.view(None).drawn_since == (0, 3)
    # The next deal starts every record afresh.
    m2 = start([H0, hand], ["KH"], {"draw": "one"})
    assert m2.view(None).declined == ("", "") and m2.view(None).drawn_since == (0, 0)


def test_a_round_that_lasts_stall_laps_turns_each_is_called_and_scored_as_blocked() -> None:
    # Both players draw one card by choice every turn, then play a card if one goes (else
    # pass): hands never shrink, the stock is rebuilt again and again, and the stall
    # protection calls the round after STALL_LAPS turns each, scored by the blocked rule.
    m = start([H0, ["2C", "3C", "4C", "5C", "6C", "7C", "KC"]], ["JH"], {"draw": "one"})
    turns = 0
    while m.view(None).phase in ("play", "name"):
        assert m.view(None).round == 1
        seat = m.to_act()[0]
        legal = m.legal(seat)
        if DRAW in legal:
            action = DRAW
        else:
            action = legal[0]  # a card that goes, a suit to name, or the pass
            turns += not (isinstance(action, Play) and action.card[0] == "8")
        m.act(seat, action)
        if m.view(None).phase == "play" and m.chance_pending():
            m.resolve_chance()  # the stock rebuilt from the discards
    v = m.view(None)
    assert turns == STALL_LAPS * 2 and v.called and v.blocked
    values = [sum(value(c) for c in m.state.hands[s]) for s in (0, 1)]
    low = min(values)
    assert v.round_points == tuple(
        0 if values[s] != low or values.count(low) > 1 else sum(values) - 2 * low
        for s in (0, 1))
    assert "crazy_eights.called" in [c.key for c in GAME.common(v).captions]
