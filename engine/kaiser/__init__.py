"""Kaiser: the rules (``rules``) and the computer players (``ai``). Exports ``GAME`` and
``PLAYERS``."""

from __future__ import annotations

from engine.kaiser.ai import PLAYERS
from engine.kaiser.rules import GAME

__all__ = ["GAME", "PLAYERS"]
