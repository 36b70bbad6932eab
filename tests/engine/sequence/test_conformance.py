"""The generic conformance checks, with Sequence's options and variants switched on.

The plain game is already covered by tests/engine/test_conformance.py (every registered game);
here each variant and player count gets seeded random games, a few of them with the deep
checks (every legal action applies, illegal ones are refused unchanged, views are invariant
under redrawing hidden cards, the record replays to the same views).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.sequence import GAME
from engine.sequence.data import Discard, Double, ExchangeDead, Remove, Wild
from tests.engine.conformance import play_random

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (6, {"teams": 3}),
    (9, {}),
    (10, {}),
    (2, {"board": "random"}),
    (2, {"fill_board": True}),
    (3, {"fill_board": True, "reshuffle": False}),
    (2, {"doubles": True}),
    (2, {"captures": True}),
    (4, {"captures": True, "doubles": True, "fill_board": True, "board": "random"}),
    (2, {"dead_card": False}),
    (2, {"reshuffle": False, "sequences_to_win": 6}),
    (4, {"sequences_to_win": 3}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=lambda x: str(x))
def test_variants_conform(players: int, options: dict[str, Any]) -> None:
    for seed in range(2):
        play_random(GAME, 500 + seed, players, options, deep=True)
    for seed in range(20):
        m = play_random(GAME, seed, players, options)
        assert m.outcome() is not None


def test_random_play_reaches_every_kind_of_action() -> None:
    """The conformance games are not vacuous: every action type turns up in them."""
    seen: set[type] = set()
    for players, options in CONFIGS:
        for seed in range(3):
            m = play_random(GAME, seed, players, options)
            seen.update(type(s.action) for s in m.steps if hasattr(s, "action"))
    assert {Wild, Remove, Double, ExchangeDead, Discard} <= seen


def _universe(state: Any, seat: int) -> list[Any]:
    """Every action naming a card of the seat's hand, on every square (and every team)."""
    from engine.sequence.board import CARDS, SIZE
    from engine.sequence.data import Place

    out: list[Any] = []
    for code in sorted({CARDS[c] for c in state.hands[seat]}):
        out += [ExchangeDead(code), Discard(code)]
        for r in range(SIZE):
            for c in range(SIZE):
                out += [Place(code, r, c), Wild(code, r, c)]
                out += [Remove(code, r, c, t) for t in range(state.rules.teams)]
                out += [Double(code, r, c, r2, c2) for r2, c2 in ((r, c + 1), (9 - r, 9 - c))]
    return out


@pytest.mark.parametrize(("players", "options"), [
    (2, {"doubles": True}), (3, {"fill_board": True}), (4, {"captures": True, "dead_card": False})])
def test_exactly_the_legal_actions_apply(players: int, options: dict[str, Any]) -> None:
    """The per-action checks in apply and the legal-move generator agree, action by action."""
    from engine.errors import IllegalAction
    from engine.match import Match
    from tests.engine.sequence.scenario import random_until

    m = Match.start(GAME, players, options, seed=11)
    checked = 0

    def check(m: Match) -> bool:
        nonlocal checked
        if not m.to_act() or len(m.steps) % 7:
            return False
        seat = m.to_act()[0]
        legal = set(m.legal(seat))
        for a in _universe(m.state, seat):
            try:
                GAME.apply(m.state, seat, a)
            except IllegalAction:
                assert a not in legal, a
            else:
                assert a in legal, a
        # Double has squares from the layout, so check the listed ones too.
        for a in legal:
            GAME.apply(m.state, seat, a)
        checked += 1
        return False

    random_until(m, check, 5)
    assert checked >= 10
