"""What one seat (or a spectator) may know of a Golf game, built cell by cell.

Allowed: every face-up card; the seat's own face-down cards it peeked at (marked, still face
down: nobody else sees them); a stock card the seat holds; a discard-pile card taken (the
pile is public); the discard pile; the stock's size; who ended the hole and the turns left;
the scores. Never: a face-down card the seat has not seen (its own included), another
seat's peeked cards, the stock, the seed, or the next deal. This module must never copy the
state wholesale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.golf.state import SHAPES, State

if TYPE_CHECKING:
    from engine.golf.rules import GolfGame


@dataclass(frozen=True)
class Cell:
    """One card of a layout: ``card`` is empty when this seat does not know it; ``up`` is
    True when it is face up for everyone (a known face-down card is one this seat peeked at)."""

    card: str
    up: bool


@dataclass(frozen=True)
class LastMove:
    """``kind``: draw, take, place, discard, flip or knock; ``card`` empty when not shown;
    ``cell`` the layout index it concerns, -1 for none."""

    seat: int
    kind: str
    card: str
    cell: int


@dataclass(frozen=True)
class GolfView:
    seat: int | None
    phase: str  # deal, turn, place, place_or_discard, flip, between, over
    hole: int
    holes: int
    rows: int
    cols: int
    end: str  # knock or face_up
    final_turn: bool
    flip_mandatory: bool
    knock_penalty: bool
    to_act: tuple[int, ...]
    layout: tuple[Cell, ...]  # this seat's, row by row; () for a spectator
    layouts: tuple[tuple[Cell, ...], ...]  # every seat's, as this seat may see them
    holding: str  # the card the seat to act holds, if this seat may see it
    holding_from: str  # "stock", "discard" or ""
    stock_count: int
    discard: tuple[str, ...]
    ender: int  # who knocked or turned the last card up; -1 before
    turns_left: int  # turns still to play before the hole is scored; -1 before an end
    last: LastMove | None
    hole_points: tuple[int, ...]
    called: bool  # the last scored hole was called by the stall protection
    totals: tuple[int, ...]


def _cells(state: State, owner: int, seat: int | None) -> tuple[Cell, ...]:
    lay, up, peeked = state.layouts[owner], state.up[owner], state.peeked[owner]
    return tuple(Cell(c if u or (owner == seat and p) else "", u)
                 for c, u, p in zip(lay, up, peeked, strict=True))


def build_view(game: GolfGame, state: State, seat: int | None) -> GolfView:
    rows, cols = SHAPES[state.size]
    layouts = tuple(_cells(state, s, seat) for s in range(state.players))
    shown = state.holding if state.holding and (
        not state.from_stock or seat == state.turn) else ""
    src = "" if not state.holding else ("stock" if state.from_stock else "discard")
    s, kind, card, i = state.last
    # A drawn card is named only to the drawer; a placed or discarded one is public.
    if kind == "draw" and seat != s:
        card = ""
    return GolfView(
        seat=seat, phase=state.phase, hole=state.hole, holes=state.holes, rows=rows,
        cols=cols, end=state.end, final_turn=state.final_turn,
        flip_mandatory=state.flip_mandatory, knock_penalty=state.knock_penalty,
        to_act=game.to_act(state), layout=layouts[seat] if seat is not None else (),
        layouts=layouts, holding=shown, holding_from=src, stock_count=len(state.stock),
        discard=state.discard, ender=state.ender,
        turns_left=state.left if state.ender >= 0 else -1,
        last=LastMove(s, kind, card, i) if s >= 0 else None,
        hole_points=state.hole_points, called=state.called, totals=state.totals)
