"""Euchre: the rules (``rules``), the card tables they share with the players (``tables``),
what a seat knows and deals consistent with it (``knowledge``), double-dummy search
(``search``) and the computer players (``ai``). Exports ``GAME`` and ``PLAYERS``."""

from __future__ import annotations

from engine.euchre.ai import PLAYERS
from engine.euchre.rules import GAME

__all__ = ["GAME", "PLAYERS"]
