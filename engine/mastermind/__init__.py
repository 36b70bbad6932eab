"""Mastermind: break a hidden code of coloured pegs (rules: docs/rules/mastermind.md).

``GAME`` is the rules (rules.py), ``PLAYERS`` the computer players by level (ai.py).
"""

from engine.mastermind.ai import PLAYERS
from engine.mastermind.rules import GAME

__all__ = ["GAME", "PLAYERS"]
