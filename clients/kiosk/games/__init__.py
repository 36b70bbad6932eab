"""Which picture a table gets: its family's renderer, chosen by the game's presentation
descriptor, with the game's small hook; the generic picture for everything else.

A renderer is a function ``(ctx, rect, entry)`` that draws the table's public view inside
``rect``. A family renderer (``trick_taking``, ``shedding``, ``grid_board``) is chosen by the
descriptor's ``family``, never by the game id, and only when the view holds the zone it needs;
a family without a renderer (``track_board``, ``code_breaking``), a view it cannot read, or a
box that sent no descriptor gets ``generic``. ``HOOKS`` names each game's optional hook
(hook.py): a new game of a known family needs none.
"""

from __future__ import annotations

from collections.abc import Callable

from pygame import Rect

from clients.kiosk.draw import Ctx
from clients.kiosk.games import (
    checkers,
    euchre,
    generic,
    grid_board,
    kaiser,
    president,
    sequence,
    shedding,
    trick_taking,
    wizard,
)
from clients.kiosk.games.hook import NONE, Hook
from clients.kiosk.model import TableEntry

Renderer = Callable[[Ctx, Rect, TableEntry], None]
Family = Callable[[Ctx, Rect, TableEntry, Hook], None]

# family -> (can it draw this view, how)
FAMILIES: dict[str, tuple[Callable[[TableEntry], bool], Family]] = {
    "trick_taking": (trick_taking.can_draw, trick_taking.draw),
    "shedding": (shedding.can_draw, shedding.draw),
    "grid_board": (grid_board.can_draw, grid_board.draw),
}

HOOKS: dict[str, Hook] = {
    "euchre": euchre.HOOK,
    "president": president.HOOK,
    "sequence": sequence.HOOK,
    "checkers": checkers.HOOK,
    "kaiser": kaiser.HOOK,
    "wizard": wizard.HOOK,
}


def renderer_for(entry: TableEntry) -> Renderer:
    family = FAMILIES.get(str((entry.presentation or {}).get("family")))
    if family is None or not family[0](entry):
        return generic.draw
    draw, hook = family[1], HOOKS.get(entry.game, NONE)
    return lambda ctx, rect, e: draw(ctx, rect, e, hook)
