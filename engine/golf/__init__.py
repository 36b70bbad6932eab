"""Golf: swap cards into a face-down layout to score low (rules: docs/rules/golf.md).

``GAME`` is the rules (rules.py), ``PLAYERS`` the computer players by level (ai.py).
"""

from engine.golf.ai import PLAYERS
from engine.golf.rules import GAME

__all__ = ["GAME", "PLAYERS"]
