"""Golf rules, one pinned deal per rule and scoring line (docs/rules/golf.md).

Covers the edge cases games-rules.md lists: pairs cancel twos included; three equal cards in
a two-row layout cancel only as a column pair; a discard-pile card must go into the layout;
4-card Golf ends by a knock, the others having one more turn; the all-face-up end with and
without the final turns; flipping after a discard, optional or mandatory; the knock penalty.
"""

from __future__ import annotations

import pytest

from engine.errors import BAD_CHANCE, IllegalAction, OptionError
from engine.golf import GAME
from engine.golf.rules import CANNOT_KNOCK, MUST_PLACE, NO_SUCH_CELL, WRONG_STEP
from engine.golf.state import (
    Deal,
    Discard,
    DrawStock,
    Flip,
    Knock,
    NoFlip,
    Place,
    TakeDiscard,
    layout_score,
    value,
)
from engine.match import Match
from tests.engine.golf.scenario import start

# Seat 0 deals the first hole, so seat 1 plays first.
L0 = ["AS", "3S", "4S", "5S", "6S", "7S"]
L1 = ["AH", "3H", "4H", "5H", "6H", "7H"]


def test_card_values() -> None:
    assert [value(c) for c in ("AS", "2S", "3S", "9S", "TS", "JS", "QS", "KS")] == [
        1, -2, 3, 9, 10, 10, 10, 0]


def test_a_column_pair_scores_zero_twos_included() -> None:
    assert layout_score(("2S", "5S", "KS", "2H", "6S", "9S"), 2, 3) == 0 + 11 + 9
    assert layout_score(("2S", "2H", "KS", "3H", "6S", "9S"), 2, 3) == 1 + 4 + 9  # no row pairs
    assert layout_score(("QS", "QH", "QD", "QC"), 2, 2) == 0


def test_three_equal_in_a_two_row_layout_cancel_only_as_a_column_pair() -> None:
    # Three fives: the column pair cancels, the third counts.
    assert layout_score(("5S", "5H", "3S", "5D", "4S", "6S"), 2, 3) == 5 + 3 + 4 + 6
    # A row of three equal in 2x3 does not cancel.
    assert layout_score(("5S", "5H", "5D", "3S", "4S", "6S"), 2, 3) == 28


def test_nine_card_triples_in_a_row_or_column_cancel_and_pairs_do_not() -> None:
    row = ("7S", "7H", "7D", "AS", "3S", "4S", "5S", "6S", "9S")
    assert layout_score(row, 3, 3) == 1 + 3 + 4 + 5 + 6 + 9
    col = ("7S", "AS", "3S", "7H", "4S", "5S", "7D", "6S", "9S")
    assert layout_score(col, 3, 3) == 1 + 3 + 4 + 5 + 6 + 9
    pair = ("7S", "AS", "3S", "7H", "4S", "5S", "KD", "6S", "9S")
    assert layout_score(pair, 3, 3) == 7 + 7 + 1 + 3 + 4 + 5 + 6 + 9


def test_start_two_face_up_three_in_nine_card() -> None:
    m = start([L0, L1], "9D")
    assert [c.up for c in m.view(0).layout] == [True, True, False, False, False, False]
    assert [c.card for c in m.view(0).layout] == ["AS", "3S", "", "", "", ""]
    nine = Match.start(GAME, 2, {"layout": "9"}, 3)
    assert sum(c.up for c in nine.view(1).layout) == 3


def test_a_discard_pile_card_must_go_into_the_layout() -> None:
    m = start([L0, L1], "9D")
    m.act(1, TakeDiscard())
    legal = m.legal(1)
    assert Discard() not in legal and all(isinstance(a, Place) for a in legal) and len(legal) == 6
    with pytest.raises(IllegalAction) as e:
        m.act(1, Discard())
    assert e.value.code == MUST_PLACE
    m.act(1, Place(1, 2))
    v = m.view(0)
    assert v.layouts[1][5].card == "9D" and v.layouts[1][5].up
    assert v.discard == ("7H",)  # the card replaced goes face up on the pile
    assert v.to_act == (0,)


def test_a_stock_card_may_be_discarded_then_flipping_is_optional() -> None:
    m = start([L0, L1], "9D", ["KC"])
    m.act(1, DrawStock())
    assert m.view(1).holding == "KC" and Discard() in m.legal(1)
    m.act(1, Discard())
    legal = m.legal(1)
    assert NoFlip() in legal and Flip(1, 0) in legal and Flip(0, 0) not in legal
    with pytest.raises(IllegalAction) as e:
        m.act(1, Flip(0, 1))
    assert e.value.code == "already_up"
    m.act(1, NoFlip())
    assert m.to_act() == (0,) and m.view(0).discard == ("9D", "KC")


def test_mandatory_flip_after_a_discard() -> None:
    m = start([L0, L1], "9D", ["KC"], {"flip": "mandatory"})
    m.act(1, DrawStock())
    m.act(1, Discard())
    assert NoFlip() not in m.legal(1)
    with pytest.raises(IllegalAction) as e:
        m.act(1, NoFlip())
    assert e.value.code == WRONG_STEP
    m.act(1, Flip(1, 1))
    assert m.view(0).layouts[1][4] .card == "6H"


def test_no_such_cell_and_no_knock_in_six_card() -> None:
    m = start([L0, L1], "9D")
    assert Knock() not in m.legal(1)
    with pytest.raises(IllegalAction) as e:
        m.act(1, Knock())
    assert e.value.code == CANNOT_KNOCK
    m.act(1, TakeDiscard())
    with pytest.raises(IllegalAction) as e:
        m.act(1, Place(2, 0))
    assert e.value.code == NO_SUCH_CELL


def _all_up_but_last(m: Match, seat: int) -> None:
    """Turn every card of ``seat`` but the last face up (through the state's own data)."""
    ups = list(m.state.up)
    ups[seat] = (True,) * 5 + (False,)
    m.state = m.state._replace(up=tuple(ups))


def test_all_face_up_ends_the_hole_after_the_others_final_turn() -> None:
    m = start([L0, L1], "9D", ["KC", "QC"], {"holes": 1})
    _all_up_but_last(m, 1)
    m.act(1, TakeDiscard())
    m.act(1, Place(1, 2))  # seat 1's last face-down card: the hole is ending
    v = m.view(0)
    assert v.ender == 1 and v.turns_left == 1 and v.phase == "turn"
    m.act(0, DrawStock())
    m.act(0, Discard())
    m.act(0, NoFlip())
    o = m.outcome()
    assert o is not None and o.scores == (26, 1 + 3 + 4 + 5 + 6 + 9)
    assert o.winners == (0,) and o.reason == "golf.lowest_total"  # the ender is not lowest


def test_without_final_turns_the_hole_ends_at_once() -> None:
    m = start([L0, L1], "9D", options={"holes": 2, "final_turn": False})
    _all_up_but_last(m, 1)
    m.act(1, TakeDiscard())
    m.act(1, Place(1, 2))
    v = m.view(None)
    assert v.phase == "between" and v.hole_points == (26, 28)
    assert all(c.up and c.card for lay in v.layouts for c in lay)  # all shown when scored


FOUR0 = ["AS", "3S", "4S", "5S"]
FOUR1 = ["AH", "3H", "KH", "KD"]


def test_four_card_golf_peeks_the_near_row_and_ends_by_a_knock() -> None:
    m = start([FOUR0, FOUR1], "9D", ["QC", "JC"], {"holes": 1, "layout": "4"})
    v1 = m.view(1)
    assert [c.card for c in v1.layout] == ["", "", "KH", "KD"]
    assert not any(c.up for c in v1.layout)
    assert Knock() in m.legal(1)
    m.act(1, Knock())  # instead of drawing
    assert m.to_act() == (0,) and Knock() not in m.legal(0)
    m.act(0, DrawStock())
    m.act(0, Discard())
    o = m.outcome()
    assert o is not None and o.scores == (13, 4) and o.winners == (1,)


def test_the_knock_penalty_doubles_a_knocker_who_is_not_lowest() -> None:
    m = start([FOUR0, FOUR1], "9D", ["QC"], {"holes": 1, "layout": "4", "knock_penalty": True})
    m.act(1, TakeDiscard())
    m.act(1, Place(1, 0))  # 9D for KH: seat 1 now holds 1 + 3 + 9 + 0 = 13
    m.act(0, Knock())  # seat 0 knocks at 13: level, so not lowest
    m.act(1, DrawStock())
    m.act(1, Discard())
    o = m.outcome()
    assert o is not None and o.scores == (26, 13)


def test_holes_add_up_and_lowest_total_wins() -> None:
    m = Match.start(GAME, 3, {"holes": 3}, 9)
    assert m.view(None).holes == 3
    with pytest.raises(OptionError):
        GAME.validate(3, {"holes": 19})


def test_bad_options_and_deals_are_refused() -> None:
    for bad in ({"layout": "5"}, {"end": "never"}, {"flip": "always"},
                {"layout": "4", "flip": "mandatory"}, {"jokers": True}):
        with pytest.raises(OptionError):
            GAME.validate(2, bad)
    with pytest.raises(OptionError):
        GAME.validate(1, {})
    m = Match.start(GAME, 2, {}, 0, resolve=False)
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(Deal(("AS",) * 52))
    assert e.value.code == BAD_CHANCE
