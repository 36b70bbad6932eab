"""The catalogue: which games exist and where their rules live.

Games are imported on first use so that listing the catalogue stays cheap and one broken
game cannot stop the others from loading. Adding a game is one line in ``GAME_MODULES``;
its package must export ``GAME`` (a ``engine.game.Game``) and ``PLAYERS`` (level -> player).
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.errors import OptionError
from engine.game import Game

GAME_MODULES: dict[str, str] = {
    "sequence": "engine.sequence",
    "euchre": "engine.euchre",
    "president": "engine.president",
    "checkers": "engine.checkers",
    "mastermind": "engine.mastermind",
    "golf": "engine.golf",
    "kaiser": "engine.kaiser",
    "wizard": "engine.wizard",
    "backgammon": "engine.backgammon",
    "crazy_eights": "engine.crazy_eights",
    "chess": "engine.chess",
}


def ids() -> tuple[str, ...]:
    return tuple(GAME_MODULES)


def get(game_id: str) -> Game[Any]:
    """The game with this id, or OptionError naming the ids there are."""
    module = GAME_MODULES.get(game_id)
    if module is None:
        raise OptionError("game", f"unknown game {game_id!r}", ids())
    game: Game[Any] = importlib.import_module(module).GAME
    return game


def players_for(game_id: str) -> dict[str, Any]:
    """The computer players of one game, by level."""
    get(game_id)
    module = importlib.import_module(GAME_MODULES[game_id])
    return dict(module.PLAYERS)


def all_games() -> list[Game[Any]]:
    return [get(i) for i in ids()]
