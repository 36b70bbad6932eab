"""Checkers' own part of the grid picture: what a cell's letter stands for (``d``/``D`` a dark man
or king, ``l``/``L`` a light one; ``.`` and ``-`` empty squares), a king drawn crowned.

Reads only the cell values of the public ``checkers_view`` board the family hands it; the
board, its numbered squares, the sides and the last move are the family's (grid_board.py).
"""

from __future__ import annotations

from typing import Any

from clients.kiosk.games.hook import Hook, Piece

PIECES: dict[str, Piece] = {"d": (0, False), "D": (0, True), "l": (1, False), "L": (1, True)}


def piece(value: Any) -> Piece | None:
    return PIECES.get(value) if isinstance(value, str) else None


HOOK = Hook(piece=piece)
