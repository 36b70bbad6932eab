"""Wizard: bid the exact number of tricks, round after round (rules: docs/rules/wizard.md).

``GAME`` is the rules (rules.py, over the plain data of state.py, with views in views.py),
``PLAYERS`` the computer players by level (ai.py).
"""

from __future__ import annotations

from engine.wizard.ai import PLAYERS
from engine.wizard.rules import GAME

__all__ = ["GAME", "PLAYERS"]
