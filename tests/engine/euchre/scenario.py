"""Pinned Euchre deals and a small driver for scenario tests.

Hands are written as card codes ("JH JD AH 9S TS"). ``deal`` turns a dealer, four hands and the
turned card into the ``Deal`` that gives them (3-2-3-2 then 2-3-2-3 from the dealer's left;
the rest of the deck in a fixed order), so every scenario goes through the real chance step.
``rotated`` moves a layout written for dealer 3 round the table, so one hand design serves
every dealer. ``play_script`` plays tricks written as cards in play order and checks that the
holder of each card is the seat to act: the scripts state the order of play as well as the cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.euchre import GAME
from engine.euchre.rules import PACKETS, Deal, EuchreState, EuchreView, Play
from engine.euchre.tables import CODE, DECK_CARDS
from engine.match import Match


def deal(dealer: int, hands: Mapping[int, str], turned: str, deck: int = 24) -> Deal:
    cards = {seat: text.split() for seat, text in hands.items()}
    assert sorted(cards) == [0, 1, 2, 3] and all(len(c) == 5 for c in cards.values())
    used = {c for cs in cards.values() for c in cs} | {turned}
    rest = tuple(CODE[c] for c in DECK_CARDS[deck] if CODE[c] not in used)
    packets = []
    taken = {seat: 0 for seat in range(4)}
    for i, n in enumerate(PACKETS):
        seat = (dealer + 1 + i) % 4
        packets.append(tuple(cards[seat][taken[seat]:taken[seat] + n]))
        taken[seat] += n
    return Deal(dealer, tuple(packets), turned, rest)


def rotated(dealer: int, hands: Mapping[int, str]) -> dict[int, str]:
    """Hands written for dealer 3, moved so that ``dealer`` deals and every role moves with it."""
    return {(seat + dealer + 1) % 4: text for seat, text in hands.items()}


# Layouts for dealer 3 (seat 0 leads). Hearts are the turned suit (9H turned).
# A: seat 0 holds three sure trumps; with the play of SCRIPT_A it takes exactly three tricks.
LAYOUT_A = {0: "JH JD AH 9S TS", 1: "AS KS AC KC AD", 2: "9C TC QC 9D TD", 3: "QS JS KD QD JC"}
SCRIPT_A = "JH KC 9C JC / JD KS TC JS / AH AC QC QD / 9S AS 9D QS / AD TD KD TS"
# B: the same idea with four sure tricks.
LAYOUT_B = {0: "JH JD AH QH 9S", 1: "AS KS AC KC AD", 2: "9C TC QC 9D TD", 3: "QS JS KD QD JC"}
SCRIPT_B = "JH KC 9C JC / JD KS TC JS / AH AC QC QD / QH AD 9D KD / 9S AS TD QS"
# C: seat 0 holds the five best trumps: a march whoever leads and however anyone plays.
LAYOUT_C = {0: "JH JD AH KH QH", 1: "AS KS AC KC AD", 2: "9C TC QC 9D TD", 3: "QS JS KD QD JC"}
SCRIPT_C = "JH KC 9C JC / JD KS TC JS / AH AC QC QD / KH AD 9D KD / QH AS TD QS"


def start(dealer: int, hands: Mapping[int, str], turned: str = "9H", *, seed: int = 0,
          **options: Any) -> Match:
    """A match whose first deal is pinned."""
    m = Match.start(GAME, 4, options, seed=seed, resolve=False)
    m.apply_chance(deal(dealer, hands, turned, int(m.options["deck"])))
    return m


def next_deal(m: Match, hands: Mapping[int, str], turned: str = "9H") -> None:
    assert GAME.between_hands(m.state)
    dealer = GAME.next_dealer(m.state)
    assert dealer is not None
    m.apply_chance(deal(dealer, hands, turned, int(m.options["deck"])))


def state(m: Match) -> EuchreState:
    s: EuchreState = m.state
    return s


def view(m: Match, seat: int | None) -> EuchreView:
    v: EuchreView = m.view(seat)
    return v


def hand_of(m: Match, seat: int) -> list[str]:
    return [c.card for c in view(m, seat).hand]


def holder(m: Match, card: str) -> int:
    seats = [s for s in range(4) if card in hand_of(m, s)]
    assert len(seats) == 1, f"{card} is in no hand"
    return seats[0]


def play_script(m: Match, script: str) -> list[int]:
    """Play tricks written as ``"JH KC 9C JC / ..."``; return the winner of each trick."""
    winners = []
    for trick in script.split("/"):
        for card in trick.split():
            seat = holder(m, card)
            assert m.to_act() == (seat,), f"{card} (seat {seat}) but {m.to_act()} to act"
            m.act(seat, Play(card))
        winners.append(view(m, None).tricks[-1].winner)
    return winners


def play_out(m: Match) -> None:
    """Finish the hand in progress with each seat's first legal action (forced layouts only)."""
    number = view(m, None).hand_number
    while m.to_act() and view(m, None).hand_number == number:
        seat = m.to_act()[0]
        m.act(seat, m.legal(seat)[0])


def act(m: Match, seat: int, action: Any) -> None:
    assert m.to_act() == (seat,), f"seat {seat} acts but {m.to_act()} to act"
    m.act(seat, action)
