"""View benchmark: what building each seat's view and legal actions costs, per seat.

Run: ``.venv/bin/python -m bench.views [--games N] [--players N] [--game ID ...] [--json]``.

A host renders every seat's view and legal actions after every step (``TableCore.payload``),
so this plays random games through ``Match`` and, after each move, times ``view(seat)`` and
``legal(seat)`` for every seat of the state, the way a host meets them: a fresh state, then
the seats one after another. The figure is the mean CPU time per seat; ``encode`` is the
host's encoding of the same view and legal actions to JSON bytes (``encode_data``, what it
pays next). The machine
is shared and noisy: compare runs made back to back, and repeat them.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from engine import registry
from engine.match import Match
from hostd.protocol.wire import encode_data

PLAYERS = 4  # the table size the host benchmarks use


def render(m: Match, spent: list[float]) -> None:
    """Every seat's view, then every seat's legal actions, then the encoding of both,
    timed into ``spent`` (same work as a host's view, legal, view, legal...: what is
    memoised is memoised per state). CPU time of this thread: on a shared machine wall time
    would also count the time spent waiting for a core."""
    clock = time.thread_time
    seats = range(m.players)
    t0 = clock()
    views = [m.view(seat) for seat in seats]
    t1 = clock()
    legals = [m.legal(seat) for seat in seats]
    t2 = clock()
    for v, legal in zip(views, legals, strict=True):
        encode_data(v)
        encode_data(legal)
    t3 = clock()
    spent[0] += t1 - t0
    spent[1] += t2 - t1
    spent[2] += t3 - t2


def measure(game_id: str, games: int, players: int) -> dict[str, Any]:
    game = registry.get(game_id)
    rng = random.Random(1)
    spent = [0.0, 0.0, 0.0]
    renders = 0
    for seed in range(games):
        m = Match.start(game, players, None, seed)
        # Not bench.engine.play_out: that asks for the legal actions before each move, and
        # a host renders first (Sequence memoises them on the state, so the order matters).
        while True:
            render(m, spent)
            renders += m.players
            to_act = m.to_act()
            if m.outcome() is not None or not to_act:
                break
            legal = m.legal(to_act[0])
            m.act(to_act[0], legal[rng.randrange(len(legal))])
            m.resolve_chance()

    def us(s: float) -> float:
        return round(s / renders * 1e6, 2)

    return {"game": game_id, "players": players, "games": games, "renders": renders,
            "view_us": us(spent[0]), "legal_us": us(spent[1]),
            "view_legal_us": us(spent[0] + spent[1]), "encode_us": us(spent[2])}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(prog="bench.views")
    p.add_argument("--game", action="append", help="game id (repeatable; default all)")
    p.add_argument("--games", type=int, default=200, help="random games per game")
    p.add_argument("--players", type=int, default=PLAYERS)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    results = []
    for game_id in args.game or registry.ids():
        row = measure(game_id, args.games, args.players)
        results.append(row)
        if args.json:
            print(json.dumps(row))
        else:
            print(f"{game_id} ({row['players']} players, {row['renders']} seat renders): "
                  f"view {row['view_us']} us + legal {row['legal_us']} us = "
                  f"{row['view_legal_us']} us per seat, encoding both {row['encode_us']} us")
    if not args.json:
        print(f"machine: {platform.machine()}, {platform.python_implementation()} "
              f"{platform.python_version()}")
    return results


if __name__ == "__main__":
    main()
