"""Kaiser: the plain data (``state``), the rules (``rules``), what each seat sees (``views``) and
the computer players (``ai``). Exports ``GAME`` and ``PLAYERS``."""

from __future__ import annotations

from engine.kaiser.ai import PLAYERS
from engine.kaiser.rules import GAME

__all__ = ["GAME", "PLAYERS"]
