"""The toy game with computer players, registered as "toy" for the daemon tests only."""

from __future__ import annotations

from engine.ai import RandomPlayer
from tests.engine.toygame import GAME

PLAYERS = {level: RandomPlayer() for level in ("random", "easy", "normal", "hard")}

__all__ = ["GAME", "PLAYERS"]
