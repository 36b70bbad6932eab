"""One whole game between computer levels, for the games' package AI tests: each seat played
by its level from exactly what the host would give it (its view, its legal list, a generator
of its own), every choice checked against the legal list, to the end."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.match import Match


def play_levels(game: Any, players: Mapping[str, Any], levels: tuple[str, ...], seed: int,
                options: Mapping[str, object], *, max_steps: int = 20_000) -> Match:
    """``levels[seat]`` plays ``seat``; raises if a level chooses an illegal action or the
    game has not ended after ``max_steps`` actions."""
    m = Match.start(game, len(levels), dict(options), seed)
    rngs = [random.Random(seed * 31 + s) for s in range(len(levels))]
    for _ in range(max_steps):
        if m.outcome() is not None:
            return m
        seat = m.to_act()[0]
        legal = m.legal(seat)
        action = players[levels[seat]].choose(m.view(seat), legal, rngs[seat])
        assert action in legal, (levels[seat], action)
        m.act(seat, action)
        m.resolve_chance()
    assert m.outcome() is not None, f"no end after {max_steps} actions"
    return m
