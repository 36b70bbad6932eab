"""The small per-game part of a picture: what a family renderer asks a game, and nothing else.

A family renderer (trick_taking, shedding, grid_board) draws everything a family shares from the
view, its common part and the descriptor. What is truly one game's (Euchre's turned card and
bids, President's titles and revolution, Sequence's card-shaped squares) is a ``Hook``: a few
optional functions, each with a plain default, so a new game of a known family needs none.
A hook reads the public view it is given, never anything else, and draws inside the rectangle
it is handed. This module only defines the shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pygame import Rect

from clients.kiosk.draw import Color, Ctx
from clients.kiosk.model import TableEntry

View = dict[str, Any]
Badge = tuple[str, Color]  # a word under a seat's name, in its colour
Tag = tuple[str, bool]  # a pill at a seat's feet (a bid, "passed"); True: in gold
Piece = tuple[int, bool]  # what stands on a grid cell: its side, and a mark (crowned, locked)
CellRect = Callable[[int, int], Rect]

# Each takes (ctx, ..., entry, view) as named below; None means the family's default.
Badges = Callable[[Ctx, TableEntry, View, int], list[Badge]]
SeatTag = Callable[[Ctx, TableEntry, View, int], Tag | None]
SeatBody = Callable[[Ctx, Rect, TableEntry, View, int], bool]  # True: drawn instead of the fan
Area = Callable[[Ctx, Rect, TableEntry, View], bool]  # True: drawn, the default is skipped
Lines = Callable[[Ctx, TableEntry, View], list[str]]
Pieces = Callable[[Any], Piece | None]
Overlay = Callable[[Ctx, CellRect, TableEntry, View], None]
SideScore = Callable[[Ctx, TableEntry, View, int], tuple[str, str, str]]  # big, label, detail
Last = Callable[[Ctx, TableEntry, View], tuple[str | None, list[str]]]  # a card, its lines


@dataclass(frozen=True)
class Hook:
    # card tables (trick_taking, shedding)
    badges: Badges | None = None
    tag: SeatTag | None = None
    seat_body: SeatBody | None = None
    top: Area | None = None  # the line above the table
    status: Area | None = None  # the strip's end (trump and who called it)
    goal: Lines | None = None  # the strip's middle (the target, tricks this hand)
    middle: Area | None = None  # the table's middle instead of the trick or pile
    banner: Area | None = None  # over the table between hands
    # grids
    cell_aspect: float = 1.0  # a cell's width / height (Sequence's are card-shaped)
    piece: Pieces | None = None
    overlay: Overlay | None = None
    side_score: SideScore | None = None
    last: Last | None = None


NONE = Hook()
