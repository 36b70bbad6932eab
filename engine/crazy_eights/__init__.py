"""Crazy Eights: match rank or suit, eights are wild (rules: docs/rules/crazy_eights.md).

``GAME`` is the rules (rules.py), ``PLAYERS`` the computer players by level (ai.py).
"""

from engine.crazy_eights.ai import PLAYERS
from engine.crazy_eights.rules import GAME

__all__ = ["GAME", "PLAYERS"]
