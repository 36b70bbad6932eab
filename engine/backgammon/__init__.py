"""Backgammon with the doubling cube and match play (rules: docs/rules/backgammon.md).

``GAME`` is the rules (rules.py), ``PLAYERS`` the computer players by level (ai.py).
"""

from engine.backgammon.ai import PLAYERS
from engine.backgammon.rules import GAME

__all__ = ["GAME", "PLAYERS"]
