"""President, CardVerse rules 1.1.0: the rules (``rules``), views (``views``) and computer
players (``ai``). Exports ``GAME`` and ``PLAYERS`` for the registry."""

from engine.president.ai import PLAYERS
from engine.president.rules import GAME

__all__ = ["GAME", "PLAYERS"]
