"""Euchre: the rules (``rules``), the card tables they share with the players (``tables``), and
the computer players (``ai``). Exports ``GAME`` and ``PLAYERS`` for the registry."""

from __future__ import annotations

from engine.ai import RandomPlayer
from engine.euchre.rules import GAME

PLAYERS = {"random": RandomPlayer()}

__all__ = ["GAME", "PLAYERS"]
