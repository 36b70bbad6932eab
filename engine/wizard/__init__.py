"""Wizard: the rules (``rules``) and the computer players (``ai``). Exports ``GAME`` and
``PLAYERS``."""

from __future__ import annotations

from engine.wizard.ai import PLAYERS
from engine.wizard.rules import GAME

__all__ = ["GAME", "PLAYERS"]
