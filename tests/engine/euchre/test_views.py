"""What each seat's Euchre view shows, and that it never shows a card the seat may not see.

The leak check is byte-level: the JSON a seat would be sent is searched for the code of every
card that seat cannot see (other hands, the undealt cards, and the dealer's discard for anyone
but the dealer), in random games with every option varied, against the true state.
"""

from __future__ import annotations

import dataclasses
import json
import random

import msgspec
import pytest

from engine.codec import to_data, to_wire
from engine.euchre import GAME
from engine.euchre.rules import EuchreState, NameTrump, OrderUp, Pass, Play
from engine.euchre.tables import CODE, cards_of
from engine.match import Match
from tests.engine.euchre.scenario import (
    LAYOUT_A,
    SCRIPT_A,
    act,
    play_script,
    start,
    state,
    view,
)
from tests.engine.euchre.test_rules import order_up, pass_round_one

OPTION_SETS = [
    {},
    {"deck": "32"},
    {"stick_the_dealer": False},
    {"going_alone": False},
    {"defend_alone": True},
    {"deck": "32", "stick_the_dealer": False, "defend_alone": True, "target": "15"},
]


def encoded(m: Match, seat: int | None) -> str:
    return json.dumps(to_data(m.view(seat)), sort_keys=True)


def test_captions_name_the_bowers_once_trump_is_made() -> None:
    m = start(3, {0: "JH AH 9S TS 9C", 1: "JD QS KS QC KC", 2: "AS AC AD KD TC",
                  3: "9D TD QD JS JC"})
    assert all(c.caption is None for s in range(4) for c in view(m, s).hand)
    order_up(m, 0)
    assert [(c.card, c.caption) for c in view(m, 0).hand] == [
        ("JH", "euchre.card.right_bower"), ("AH", None), ("TS", None), ("9S", None),
        ("9C", None)]
    assert view(m, 1).hand[0].card == "JD" and view(m, 1).hand[0].caption == (
        "euchre.card.left_bower")
    # Jacks of the other colour are plain cards.
    assert all(c.caption is None for c in view(m, 3).hand)
    assert view(m, None).hand == ()


def test_the_hand_is_sorted_trumps_first() -> None:
    m = start(3, LAYOUT_A)
    pass_round_one(m)
    act(m, 0, NameTrump("S"))
    assert [c.card for c in view(m, 0).hand] == ["TS", "9S", "AH", "JH", "JD"]
    assert [c.card for c in view(m, 3).hand] == ["JS", "JC", "QS", "KD", "QD"]
    assert view(m, 3).hand[0].caption == "euchre.card.right_bower"
    assert view(m, 3).hand[1].caption == "euchre.card.left_bower"


def test_the_view_follows_the_hand() -> None:
    m = start(3, LAYOUT_A)
    v = view(m, 1)
    assert (v.seat, v.side, v.dealer, v.turned, v.turned_status, v.to_act) == (
        1, 1, 3, "9H", "up", (0,))
    assert (v.trump, v.maker, v.alone, v.sitting_out, v.bids) == (None, None, False, (), ())
    assert (v.target, v.deck, v.stick_the_dealer, v.going_alone, v.defend_alone) == (
        10, 24, True, True, False)
    order_up(m, 0, bury="QS")
    v = view(m, 1)
    assert (v.trump, v.maker, v.turned_status, v.phase) == ("H", 0, "taken", "play")
    assert [(b.seat, b.call, b.suit) for b in v.bids] == [(0, "order_up", "H")]
    assert v.discard is None and view(m, 3).discard == "QS"
    m.act(0, Play("JH"))
    v = view(m, 2)
    assert v.leader == 0 and [(p.seat, p.card) for p in v.trick] == [(0, "JH")]
    assert v.hand_counts == (4, 5, 5, 5)


def test_the_finished_hand_stays_in_view_until_the_next_deal() -> None:
    m = start(3, LAYOUT_A)
    order_up(m, 0)
    winners = play_script(m, SCRIPT_A)
    v = view(m, 2)
    assert v.phase == "hand_over" and v.to_act == () and v.trick == ()
    assert [t.winner for t in v.tricks] == winners == [0, 0, 0, 1, 1]
    assert [t.leader for t in v.tricks] == [0, 0, 0, 0, 1]
    assert v.tricks_won == (3, 2) and v.score == (1, 0)
    last = v.last_hand
    assert last is not None
    assert (last.hand, last.dealer, last.maker, last.alone, last.tricks, last.points,
            last.score, last.result) == (1, 3, 0, False, (3, 2), (1, 0), (1, 0),
                                         "euchre.result.made")
    m.resolve_chance()
    v = view(m, 2)
    assert v.tricks == () and v.tricks_won == (0, 0) and v.score == (1, 0)
    assert v.hand_number == 2 and v.last_hand == last and v.phase == "round_one"


def test_alone_and_defending_alone_show_who_sits_out() -> None:
    m = start(3, LAYOUT_A, defend_alone=True)
    order_up(m, 0, alone=True)
    act(m, 1, GAME.legal_actions(state(m), 1)[0])  # defend alone
    v = view(m, None)
    assert (v.alone, v.lone_defender, v.sitting_out) == (True, 1, (2, 3))


def hidden_codes(s: EuchreState, seat: int | None) -> set[str]:
    """The cards ``seat`` cannot know where they are, from the true state."""
    hand = s.hand
    if hand is None:
        return set()
    mask = hand.kitty
    for other in range(4):
        if other != seat:
            mask |= s.hands[other]
    if hand.discard >= 0 and seat != hand.dealer:
        mask |= 1 << hand.discard
    mask &= ~(1 << hand.turned)  # the turned card is public wherever it went
    return {CODE[c] for c in cards_of(mask)}


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_no_view_ever_holds_a_hidden_card(options: dict[str, object]) -> None:
    checked = 0
    for seed in range(6):
        m = Match.start(GAME, 4, options, seed=seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            for seat in (None, 0, 1, 2, 3):
                text = encoded(m, seat)
                for code in hidden_codes(state(m), seat):
                    assert f'"{code}"' not in text, f"seat {seat} sees {code}"
                    checked += 1
            if not m.to_act():
                m.resolve_chance()
                continue
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
    assert checked > 10_000


def test_resampling_redeals_only_what_the_seat_cannot_see() -> None:
    m = start(3, LAYOUT_A)
    act(m, 0, OrderUp())
    act(m, 3, m.legal(3)[0])  # the dealer buries something other than the 9H
    s = state(m)
    assert s.hand is not None
    rng = random.Random(3)
    moved = 0
    for _ in range(20):
        other = GAME.resample_hidden(s, 0, rng)
        assert other.hands[0] == s.hands[0]
        assert other.hands[3] >> s.hand.turned & 1  # everyone saw the dealer take the 9H
        assert [h.bit_count() for h in other.hands] == [h.bit_count() for h in s.hands]
        assert other.seed != s.seed
        moved += other.hands[1] != s.hands[1]
        dealer_view = GAME.resample_hidden(s, 3, rng)
        assert dealer_view.hand is not None and dealer_view.hand.discard == s.hand.discard
        assert encoded_state(dealer_view, 3) == encoded_state(s, 3)
    assert moved > 10


def encoded_state(s: EuchreState, seat: int) -> str:
    return json.dumps(to_data(GAME.view(s, seat)), sort_keys=True)


def test_a_view_of_no_seat_is_refused() -> None:
    m = start(3, LAYOUT_A)
    with pytest.raises(ValueError):
        m.view(4)
    assert view(m, None).seat is None and view(m, None).side is None
    assert Pass() in m.legal(0)


def test_views_built_without_init_equal_views_built_by_it() -> None:
    """The view, the hand result and the deal skip their dataclass ``__init__`` for speed: each
    must be the very instance the constructor builds, field for field, and stay frozen."""
    m = Match.start(GAME, 4, {}, 11)
    rng = random.Random(11)
    built = []
    while m.outcome() is None:
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
        if m.state.last is not None and m.chance_pending():
            built += [m.view(0), m.view(None), m.state.last, m.game.chance_outcome(m.state)]
        m.resolve_chance()
    assert len(built) > 8
    for obj in built:
        names = [f.name for f in dataclasses.fields(obj)]
        assert list(vars(obj)) == names
        again = type(obj)(**{n: getattr(obj, n) for n in names})
        assert again == obj and hash(again) == hash(obj) and repr(again) == repr(obj)
        assert msgspec.json.encode(to_data(again)) == msgspec.json.encode(to_data(obj))
        assert msgspec.json.encode(to_wire(again)) == msgspec.json.encode(to_wire(obj))
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, names[0], None)
