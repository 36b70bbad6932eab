"""No leaks: each seat's JSON view, byte by byte, against the true state (one deck, so a card
code in a view names exactly one card)."""

from __future__ import annotations

import json
import random

import pytest

from engine.codec import to_data
from engine.match import Match
from engine.president import GAME
from engine.president import cards as pc
from engine.president.rules import EXCHANGE, State, known_holdings
from tests.engine.president.scenario import give_back, next_deal, play_out, start, view


def encoded(m: Match, seat: int | None) -> str:
    return json.dumps(to_data(m.view(seat)), sort_keys=True)


def leaked(text: str, mask: int) -> list[str]:
    return [c for c in pc.codes(mask) if f'"{c}"' in text]


def check_no_other_hand(m: Match) -> None:
    state: State = m.state
    for seat in [None, *range(m.players)]:
        text = encoded(m, seat)
        known = known_holdings(state, seat) if seat is not None else {}
        for other, hand in enumerate(state.hands):
            if other != seat:
                assert not leaked(text, hand & ~known.get(other, 0)), (seat, other)


def check_exchange_private(m: Match) -> None:
    """The cards of an exchange leg, until played, appear only in its two seats' views."""
    state: State = m.state
    for leg in state.legs:
        moved = (leg.given | max(leg.back, 0)) & ~state.played
        for seat in [None, *range(m.players)]:
            text = encoded(m, seat)
            if seat in (leg.giver, leg.receiver):
                assert set(pc.codes(leg.given)) <= set(text_codes(text))
            else:
                own = state.hands[seat] if seat is not None else 0
                assert not leaked(text, moved & ~own), (seat, leg)
                ex = m.view(seat).exchange
                assert ex is None or ex.partner not in (leg.giver, leg.receiver)


def text_codes(text: str) -> list[str]:
    return [c for c in pc.CODES if f'"{c}"' in text]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_view_shows_a_card_of_another_hand(players: int) -> None:
    for seed in range(3):
        m = Match.start(GAME, players, {"rounds": 3}, seed)
        rng = random.Random(seed)
        exchanges = 0
        while m.outcome() is None:
            check_no_other_hand(m)
            check_exchange_private(m)
            exchanges += m.state.phase == EXCHANGE
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()
        check_no_other_hand(m)
        assert exchanges >= 2


def test_exchange_cards_are_seen_only_by_giver_and_receiver() -> None:
    m = start(6, {}, rounds=2)
    play_out(m)
    next_deal(m, 6, {})
    state: State = m.state
    seats = {s for leg in state.legs for s in (leg.giver, leg.receiver)}
    assert len(state.legs) == 2 and len(seats) == 4
    check_exchange_private(m)
    for seat in m.to_act():
        give_back(m, seat, view(m, seat).hand[-1] if seat != state.previous[0] else
                  " ".join(view(m, seat).hand[-2:]))
        check_exchange_private(m)
    assert view(m, None).phase == "play"
    for seat in [None, *range(6)]:
        assert (view(m, seat).exchange is not None) == (seat in seats)
