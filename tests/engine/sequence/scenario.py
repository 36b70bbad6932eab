"""Pinned deals for Sequence scenario tests.

``scripted`` stacks the deck so that a list of moves, made in order, always finds its card in
the mover's hand: each seat's hand starts with the first cards it will play and every draw
brings the next one. Filler cards (the rest of the two decks, jacks last) make up the
remainder. Everything then goes through the public interface (``Match``), exactly as a host
would drive it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.match import Match
from engine.sequence import GAME
from engine.sequence.board import CARDS, COMMERCIAL_ROWS, COPIES
from engine.sequence.data import Double, Place, Shuffle
from engine.sequence.options import hand_size

Move = tuple[int, Any]


def squares(card: str, rows: Sequence[Sequence[str]] = COMMERCIAL_ROWS) -> list[tuple[int, int]]:
    """The two squares of ``card`` on a layout, in board order."""
    return [(r, c) for r, row in enumerate(rows) for c, code in enumerate(row) if code == card]


def at(row: int, col: int) -> Place:
    """Place the card printed on (row, col) of the commercial board there."""
    return Place(COMMERCIAL_ROWS[row][col], row, col)


def full_deck() -> Counter[str]:
    return Counter({c: COPIES for c in CARDS})


def stacked_deck(hands: Sequence[Sequence[str]], draws: Iterable[str] = (),
                 last: Iterable[str] = ()) -> tuple[str, ...]:
    """Both decks: ``hands`` dealt in seat order, then ``draws`` in order, then the rest
    (non-jacks first), ending with ``last``."""
    left = full_deck()
    top = [c for h in hands for c in h] + list(draws)
    bottom = list(last)
    left.subtract(top + bottom)
    assert all(n >= 0 for n in left.values()), f"more copies than two decks: {-left}"
    rest = sorted(left.elements(), key=lambda c: (c[0] == "J", CARDS.index(c)))
    return (*top, *rest, *bottom)


def _cards_of(action: Any) -> list[str]:
    if isinstance(action, Double):
        return [action.card, action.card]
    return [action.card]


def scripted(players: int, moves: Sequence[Move], options: Mapping[str, object] | None = None,
             *, extra: Mapping[int, Sequence[str]] | None = None,
             filler: Sequence[str] = ()) -> Match:
    """A match dealt so that ``moves`` (seat, action) can be made in order.

    ``extra`` puts more cards into a seat's starting hand (after the ones it will play first);
    ``filler`` is what seats draw once their own cards run out (before the general rest).
    """
    h = hand_size(players)
    need: list[list[str]] = [[] for _ in range(players)]
    for seat, action in moves:
        need[seat].extend(_cards_of(action))
    for seat, cards in (extra or {}).items():
        need[seat][h - len(cards):h - len(cards)] = list(cards)
    fill = list(filler)
    left = full_deck()
    for cards in need:
        left.subtract(cards)
    rest = sorted(left.elements(), key=lambda c: (c[0] == "J", CARDS.index(c)))
    for c in fill:
        rest.remove(c)
    fill.extend(rest)

    def next_card(seat: int) -> str:
        if given[seat] < len(need[seat]):
            card = need[seat][given[seat]]
            given[seat] += 1
            return card
        return fill.pop(0)

    given = [0] * players
    hands = [[next_card(s) for _ in range(h)] for s in range(players)]
    draws: list[str] = []
    for seat, action in moves:
        draws.extend(next_card(seat) for _ in range(2 if isinstance(action, Double) else 1))
    return deal(players, hands, draws, options, rest_order=fill)


def deal(players: int, hands: Sequence[Sequence[str]], draws: Sequence[str] = (),
         options: Mapping[str, object] | None = None, *,
         rest_order: Sequence[str] | None = None, layout: Any = None) -> Match:
    """A match whose first shuffle is pinned: ``hands`` per seat, then ``draws``, then the rest."""
    m = Match.start(GAME, players, options, seed=0, resolve=False)
    if layout is not None:
        m.apply_chance(layout)
    if rest_order is not None:
        deck = (*[c for hand in hands for c in hand], *draws, *rest_order)
        assert Counter(deck) == full_deck(), "the script needs more copies than two decks"
    else:
        deck = stacked_deck(hands, draws)
    m.apply_chance(Shuffle(deck))
    return m


def play(m: Match, moves: Sequence[Move]) -> None:
    """Make ``moves`` in order, resolving chance (reshuffles) from the seed between them."""
    for seat, action in moves:
        m.act(seat, action)
        m.resolve_chance()


def alternate(*per_seat: Sequence[Any]) -> list[Move]:
    """Moves in turn order from per-seat lists of equal length (seat 0 first)."""
    n = len(per_seat)
    assert len({len(p) for p in per_seat}) == 1
    return [(s, per_seat[s][k]) for k in range(len(per_seat[0])) for s in range(n)]


def random_until(m: Match, stop: Callable[[Match], bool], seed: int,
                 max_steps: int = 5000) -> bool:
    """Random legal moves until ``stop(m)`` holds (checked before any chance is resolved)."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        if stop(m):
            return True
        if m.outcome() is not None:
            return False
        if m.chance_pending():
            m.resolve_chance()
            continue
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
    return False
