"""Computer players: the shared contract, the random player, and lookup by level.

A player sees exactly what a remote client sees, the seat's view and its legal actions, plus
a random generator that the host seeds. It never touches the true state. A strong player may
sample hidden cards consistent with the view (the game's own sampler) and simulate with the
engine. Thinking is bounded by a deterministic work budget (samples, rollouts), never by the
clock, so a decision is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine.errors import OptionError

LEVELS = ("random", "easy", "normal", "hard")


class Player(Protocol):
    level: str

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """One of ``legal`` (never empty), chosen from what ``view`` shows."""
        ...


class RandomPlayer:
    """Uniform over the legal actions."""

    level = "random"

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return legal[rng.randrange(len(legal))]


def player(game_id: str, level: str) -> Player:
    """The computer player of ``game_id`` at ``level``, or OptionError."""
    from engine import registry

    players = registry.players_for(game_id)
    if level not in players:
        raise OptionError("level", f"unknown AI level {level!r}", tuple(players))
    p: Player = players[level]
    return p
