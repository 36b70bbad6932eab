"""Chess (FIDE Laws) on python-chess: rules (``rules``), views (``views``), PGN export
(``pgn``) and computer players (``ai``). Rules: docs/rules/chess.md. python-chess is imported
by this package only. Exports ``GAME`` and ``PLAYERS`` for the registry."""

from engine.chess.ai import PLAYERS
from engine.chess.rules import GAME

__all__ = ["GAME", "PLAYERS"]
