"""Engine and AI benchmark: random full games per second, and AI decision times per level.

Run: ``.venv/bin/python -m bench.engine [--games N] [--decisions N] [--game ID ...] [--json]``.
Everything goes through the generic rules interface, the same path hosts use (Match, views,
legal actions), so the figures are what a table costs, not what a hand-tuned loop could do.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine import ai, registry
from engine.match import Match

# The player counts the published figures use.
BENCH_PLAYERS = {"sequence": 2, "euchre": 4, "president": 4}


def play_out(m: Match, choose: Callable[[int, tuple[Any, ...]], Any],
             more: Callable[[], bool] | None = None) -> int:
    """Drive ``m`` to its end (or until ``more()`` is false) with ``choose(seat, legal)``;
    the number of actions taken."""
    steps = 0
    # Reads go to the game itself, with the match's state, as a host's table does
    # (``TableCore``); what changes the match (acting, chance) goes through the match, which
    # keeps the history. A Match method per read would be a second Python frame each.
    game = m.game
    while game.outcome(m.state) is None and (more is None or more()):
        seats = game.to_act(m.state)
        if not seats:
            if not m.resolve_chance():
                break
            continue
        seat = seats[0]
        m.act(seat, choose(seat, game.legal_actions(m.state, seat)))
        m.resolve_chance()
        steps += 1
    return steps


def random_games_per_second(game_id: str, games: int, players: int | None) -> dict[str, Any]:
    game = registry.get(game_id)
    # Uniform over the legal actions (to within 2**-53) from one C call: randrange costs three
    # Python calls, which made the chooser a tenth of what this measures.
    draw = random.Random(1).random
    steps = 0
    t0 = time.perf_counter()
    for seed in range(games):
        m = Match.start(game, players, None, seed)
        steps += play_out(m, lambda _seat, legal: legal[int(draw() * len(legal))])
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": round(dt, 3), "games_per_second": round(games / dt, 1),
            "steps_per_second": round(steps / dt)}


def decision_times(game_id: str, level: str, decisions: int, players: int | None,
                   opponents: str = "random") -> dict[str, Any]:
    """Time ``decisions`` decisions of ``level`` at seat 0 in games against ``opponents``."""
    game = registry.get(game_id)
    me = ai.player(game_id, level)
    other = ai.player(game_id, opponents)
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        m = Match.start(game, players, None, 1000 + seed)
        rngs = [random.Random(f"{seed}:{s}") for s in range(m.players)]
        seed += 1

        def choose(seat: int, legal: tuple[Any, ...], m: Match = m,
                   rngs: list[random.Random] = rngs) -> Any:
            view = m.view(seat)
            if seat != 0:
                return other.choose(view, legal, rngs[seat])
            t0 = time.perf_counter()
            action = me.choose(view, legal, rngs[seat])
            times.append(time.perf_counter() - t0)
            return action

        play_out(m, choose, lambda: len(times) < decisions)
    times.sort()
    return {
        "level": level,
        "decisions": len(times),
        "median_ms": round(statistics.median(times) * 1000, 3),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))] * 1000, 3),
        "max_ms": round(times[-1] * 1000, 3),
    }


def machine() -> str:
    return f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}"


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(prog="bench.engine")
    p.add_argument("--game", action="append", help="game id (repeatable; default all)")
    p.add_argument("--games", type=int, default=500, help="random games per game")
    p.add_argument("--decisions", type=int, default=200, help="AI decisions per level")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    results = []
    for game_id in args.game or registry.ids():
        players = BENCH_PLAYERS.get(game_id)
        row: dict[str, Any] = {"game": game_id, "players": players,
                               "random": random_games_per_second(game_id, args.games, players)}
        levels = list(registry.players_for(game_id))
        row["ai"] = [decision_times(game_id, lvl, args.decisions, players) for lvl in levels]
        results.append(row)
        if args.json:
            print(json.dumps(row))
        else:
            r = row["random"]
            print(f"{game_id} ({players} players): {r['games_per_second']} random games/s "
                  f"({r['steps_per_second']} steps/s)")
            for a in row["ai"]:
                print(f"    {a['level']:>7}: median {a['median_ms']} ms, p95 {a['p95_ms']} ms, "
                      f"max {a['max_ms']} ms over {a['decisions']} decisions")
    if not args.json:
        print(f"machine: {machine()}")
    return results


if __name__ == "__main__":
    main()
