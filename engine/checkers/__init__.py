"""Checkers (English draughts): rules (``rules``, on the 32-bit board of ``board``), views
(``views``), the ACF ballot (``ballots``) and computer players (``ai``). Rules:
docs/rules/checkers.md. Exports ``GAME`` and ``PLAYERS`` for the registry."""

from engine.checkers.ai import PLAYERS
from engine.checkers.rules import GAME

__all__ = ["GAME", "PLAYERS"]
