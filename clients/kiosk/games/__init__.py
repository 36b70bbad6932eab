"""One renderer per game, chosen by game id, and the generic one for games without their own.

A renderer is a function ``(ctx, rect, entry)`` that draws the table's public view
(``entry.view``, the JSON form of the game's spectator view) inside ``rect``. It reads the
view's fields by name and must cope with any size and aspect of ``rect``. Adding a game's
picture is one module here and one line in ``RENDERERS``.
"""

from __future__ import annotations

from collections.abc import Callable

from pygame import Rect

from clients.kiosk.draw import Ctx
from clients.kiosk.games import euchre, generic, president, sequence
from clients.kiosk.model import TableEntry

Renderer = Callable[[Ctx, Rect, TableEntry], None]

RENDERERS: dict[str, Renderer] = {
    "sequence": sequence.draw,
    "euchre": euchre.draw,
    "president": president.draw,
}


def renderer_for(game: str) -> Renderer:
    return RENDERERS.get(game, generic.draw)
