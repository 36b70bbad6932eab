"""Sequence: the board-and-cards game for 2 to 12 players (rules: docs/rules/sequence.md).

``GAME`` is the rules (rules.py), ``PLAYERS`` the computer players by level (ai.py).
"""

from engine.sequence.ai import PLAYERS
from engine.sequence.rules import GAME

__all__ = ["GAME", "PLAYERS"]
