"""Crazy Eights and Golf computer players: level against level, decision times, random games.

Run: ``.venv/bin/python -m bench.draw_ai [--games N] [--game crazy_eights|golf]
[--levels hard:normal] [--option target=1] [--no-random] [--json]``.
For each game and each pairing (default hard v normal, normal v easy) it plays ``--games``
heads-up games with the seats alternating (each deal played twice, once from each seat), and reports each level's win rate and mean final score,
each with its 95% interval (normal approximation); then the hard player's decision time
(median, p95, max: wall clock, so run it on a quiet machine) and random games per second
through the rules interface. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from engine.crazy_eights import GAME as CRAZY_EIGHTS
from engine.crazy_eights import PLAYERS as CE_PLAYERS
from engine.game import Game
from engine.golf import GAME as GOLF
from engine.golf import PLAYERS as GOLF_PLAYERS
from engine.match import Match

GAMES: dict[str, tuple[Game[Any], dict[str, Any], dict[str, Any]]] = {
    "crazy_eights": (CRAZY_EIGHTS, CE_PLAYERS, {}),
    "golf": (GOLF, GOLF_PLAYERS, {}),
}
PAIRINGS = (("hard", "normal"), ("normal", "easy"))


def play(game: Game[Any], players: dict[str, Any], levels: tuple[str, ...], seed: int,
         options: dict[str, Any], times: dict[str, list[float]] | None = None) -> Match:
    m = Match.start(game, len(levels), options, seed)
    rngs = [random.Random(seed * 31 + s) for s in range(len(levels))]
    while m.outcome() is None:
        seats = m.to_act()
        if not seats:
            m.resolve_chance()
            continue
        seat = seats[0]
        legal = m.legal(seat)
        t0 = time.perf_counter()
        action = players[levels[seat]].choose(m.view(seat), legal, rngs[seat])
        if times is not None:
            times.setdefault(levels[seat], []).append(time.perf_counter() - t0)
        m.act(seat, action)
        m.resolve_chance()
    return m


def interval(xs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return round(mean, 3), round(mean - half, 3), round(mean + half, 3)


def pairing(game_id: str, a: str, b: str, games: int,
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``games`` heads-up games of level ``a`` against ``b``, seats alternating, on seeds
    10 000 and up (the same deals for every pairing)."""
    game, players, defaults = GAMES[game_id]
    opts = {**defaults, **(options or {})}
    wins: dict[str, list[float]] = {a: [], b: []}
    scores: dict[str, list[float]] = {a: [], b: []}
    times: dict[str, list[float]] = {}
    for g in range(games):
        levels = (a, b) if g % 2 == 0 else (b, a)
        m = play(game, players, levels, 10_000 + g // 2, opts, times)
        o = m.outcome()
        assert o is not None
        for seat, lvl in enumerate(levels):
            wins[lvl].append(1.0 if seat in o.winners and not o.draw
                             and len(o.winners) == 1 else 0.0)
            scores[lvl].append(float(o.scores[seat]))
    out: dict[str, Any] = {"game": game_id, "pairing": f"{a} v {b}", "games": games,
                           "options": opts}
    for lvl in (a, b):
        ts = sorted(times.get(lvl, [0.0]))
        out[lvl] = {"win_rate": interval(wins[lvl]), "mean_score": interval(scores[lvl]),
                    "p50_ms": round(1000 * ts[len(ts) // 2], 2),
                    "p95_ms": round(1000 * ts[int(0.95 * (len(ts) - 1))], 2),
                    "max_ms": round(1000 * ts[-1], 2), "decisions": len(ts)}
    return out


def random_rate(game_id: str, games: int) -> dict[str, Any]:
    game, _players, options = GAMES[game_id]
    rng = random.Random(1)
    steps = 0
    t0 = time.perf_counter()
    for seed in range(games):
        m = Match.start(game, 4, options, seed)
        while m.outcome() is None:
            seats = m.to_act()
            if not seats:
                m.resolve_chance()
                continue
            legal = m.legal(seats[0])
            # Crazy Eights: prefer playing to drawing, or random games run for ever.
            plays = [x for x in legal if type(x).__name__ in ("Play", "NameSuit")]
            pool = plays or legal
            m.act(seats[0], pool[rng.randrange(len(pool))])
            m.resolve_chance()
            steps += 1
    dt = time.perf_counter() - t0
    return {"game": game_id, "players": 4, "games": games,
            "games_per_second": round(games / dt, 2), "steps_per_second": round(steps / dt)}


def option_value(text: str) -> tuple[str, Any]:
    """``name=value`` from the command line: ints and booleans typed, the rest text."""
    name, _, raw = text.partition("=")
    value: Any = raw
    if raw in ("true", "false"):
        value = raw == "true"
    elif raw.lstrip("-").isdigit():
        value = int(raw)
    return name, value


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(prog="bench.draw_ai")
    p.add_argument("--games", type=int, default=20, help="games per pairing (400 to publish)")
    p.add_argument("--game", action="append", choices=sorted(GAMES))
    p.add_argument("--levels", action="append", metavar="A:B",
                   help="a pairing to play (repeatable); default hard:normal and normal:easy")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, e.g. target=1 (one round) or holes=1")
    p.add_argument("--no-random", action="store_true", help="skip the random-games rate")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    options = dict(option_value(o) for o in args.option)
    pairings = [tuple(x.split(":", 1)) for x in args.levels] if args.levels else PAIRINGS
    rows: list[dict[str, Any]] = []
    for game_id in args.game or sorted(GAMES):
        for a, b in pairings:
            row = pairing(game_id, a, b, args.games, options)
            rows.append(row)
            print(json.dumps(row) if args.json else
                  f"{game_id} {row['pairing']} over {args.games} {options}: "
                  + "; ".join(f"{lvl} wins {row[lvl]['win_rate']} score "
                              f"{row[lvl]['mean_score']} p95 {row[lvl]['p95_ms']} ms"
                              for lvl in (a, b)), flush=True)
        if args.no_random:
            continue
        r = random_rate(game_id, max(5, args.games // 2))
        rows.append(r)
        print(json.dumps(r) if args.json else
              f"{game_id}: {r['games_per_second']} random games/s (4 players, "
              f"{r['steps_per_second']} steps/s)", flush=True)
    return rows


if __name__ == "__main__":
    main()
