"""Sequence's own part of the grid picture: its squares are card-shaped. The printed board of
cards and free corners (the descriptor's ``faces``), the chips, completed sequences, locked
chips and the last move (the common part's ``marks``), and each team's sequences and captures
(its ``side_notes``) are all the family's (grid_board.py).
"""

from __future__ import annotations

from clients.kiosk.games.hook import Hook

HOOK = Hook(cell_aspect=0.8)
