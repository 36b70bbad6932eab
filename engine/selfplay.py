"""AI-only games, for ``tablebox selfplay``, tests and benchmarks.

Pure: no clock, no I/O. Levels are given to seats cyclically (seat i gets ``levels[i % n]``).
Each seat's generator is derived from the game seed, so a game is reproducible from it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import ai, registry
from engine.game import Outcome
from engine.match import Match
from engine.records import to_record


@dataclass
class SelfplayResult:
    match: Match
    levels: tuple[str, ...]  # per seat
    record: dict[str, Any]

    @property
    def outcome(self) -> Outcome | None:
        return self.match.outcome()

    def winning_levels(self) -> tuple[str, ...]:
        """The distinct levels of the winning seats (empty for a draw)."""
        o = self.outcome
        if o is None or o.draw:
            return ()
        seen: list[str] = []
        for seat in o.winners:
            if self.levels[seat] not in seen:
                seen.append(self.levels[seat])
        return tuple(seen)


def seat_levels(levels: Sequence[str], players: int) -> tuple[str, ...]:
    return tuple(levels[i % len(levels)] for i in range(players))


def play(
    game_id: str,
    players: int | None,
    options: Mapping[str, object] | None,
    levels: Sequence[str],
    seed: int,
    *,
    max_steps: int = 200_000,
) -> SelfplayResult:
    """Play one whole game between computer players."""
    game = registry.get(game_id)
    match = Match.start(game, players, options, seed)
    per_seat = seat_levels(levels, match.players)
    bots = [ai.player(game_id, lvl) for lvl in per_seat]
    rngs = [random.Random(f"{seed}:ai:{seat}") for seat in range(match.players)]
    for _ in range(max_steps):
        if match.outcome() is not None:
            break
        seats = match.to_act()
        if not seats:
            if not match.resolve_chance():
                break  # neither a seat to act nor chance: the game must have ended
            continue
        seat = seats[0]
        legal = match.legal(seat)
        action = bots[seat].choose(match.view(seat), legal, rngs[seat])
        match.act(seat, action)
        match.resolve_chance()
    seats_meta = [
        {"name": f"{lvl} {i}", "controller": f"ai:{lvl}"} for i, lvl in enumerate(per_seat)
    ]
    return SelfplayResult(match, per_seat, to_record(match, seats_meta))
