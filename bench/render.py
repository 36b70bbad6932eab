"""What rendering a move's frames costs the table's task, and a digest of every frame.

Run: ``.venv/bin/python -m bench.render [--games 3] [--game ID ...] [--watchers 1] [--json]``.

``TableCore.render`` is driven directly, with no loop and no sockets: every seat of a
four-seat table is a person at ``--watchers`` connections each (phones of one seat, as a
reload leaves them), plus a spectator, and random legal moves are played to the end of
``--games`` games after one warm-up game. The figure is the CPU time of this thread
(``time.thread_time``) spent in ``render`` per move, with patches (protocol 2) and with full
states forced (each connection's last-sent record forgotten before each move). The digest is
a SHA-256 of every frame rendered, in order: the same seeds give the same frames, so two
versions of the send path that print the same digest sent every connection the very same
bytes (that is how the send path's optimisations were checked).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any

from engine import registry
from hostd.protocol.wire import to_data
from hostd.tables.core import Effects, TableCore, TableMeta

GAMES = ("euchre", "sequence", "president")
SPECTATOR = 999


def _table(game: str, seed: int, watchers: int) -> TableCore:
    meta = TableMeta(f"T{seed}", "ABCD", "bench", game, 4, {}, seed)
    core, _ = TableCore.create(meta, ["random"])
    conn = 1
    for seat in range(4):
        for k in range(watchers):
            if k == 0:
                core.join(conn, f"P{seat}", seat, f"token{seat}").commit()
            else:
                core.resume(conn, core.seats[seat].occupant.token_hash  # type: ignore[union-attr]
                            )[0].commit()
            conn += 1
    core.spectate(SPECTATOR)
    core.render(Effects(broadcast=True))  # everyone's first (full) state
    return core


def play(game: str, games: int, watchers: int, *, full: bool, digest: Any) -> tuple[float, int]:
    """CPU seconds in ``render`` and moves, over ``games`` games (after one not counted)."""
    rng = random.Random(11)
    spent, moves = 0.0, 0
    clock = time.thread_time
    for g in range(games + 1):
        core = _table(game, 100 + g, watchers)
        conns = {seat: [c for c, s in core.watchers.items() if s == seat] for seat in range(4)}
        for _ in range(5000):
            if core.status != "playing":
                break
            if core.chance_pending():
                change = core.resolve_chance()
                effects, mover, re = change.commit(), None, None
            else:
                seat = core.to_act()[0]
                legal = core.match.legal(seat)
                action = legal[rng.randrange(len(legal))]
                mover, re = conns[seat][0], moves
                effects = core.intent(mover, core.version, to_data(action), None, re).commit()
            if full:
                core._sent.clear()
            t0 = clock()
            frames = core.render(effects)
            t1 = clock()
            for conn, frame in frames:
                digest.update(b"%d:" % conn + frame)
            if g > 0 and mover is not None:
                spent += t1 - t0
                moves += 1
    return spent, moves


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(prog="bench.render", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--game", action="append", help=f"default: {', '.join(GAMES)}")
    ap.add_argument("--watchers", type=int, default=1, help="connections per seat")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    for game in args.game or GAMES:
        registry.get(game)
        row: dict[str, Any] = {"game": game, "watchers_per_seat": args.watchers}
        for full in (True, False):
            h = hashlib.sha256()
            spent, moves = play(game, args.games, args.watchers, full=full, digest=h)
            key = "full" if full else "patches"
            row[f"{key}_us_per_move"] = round(1e6 * spent / max(1, moves))
            row[f"{key}_digest"] = h.hexdigest()[:16]
            row["moves"] = moves
        rows.append(row)
        print(f"{game}: {row['moves']} moves, render {row['full_us_per_move']} us/move with "
              f"full states, {row['patches_us_per_move']} us/move with patches; digests "
              f"{row['full_digest']} {row['patches_digest']}", flush=True)
    if args.json:
        print(json.dumps(rows))
    return rows


if __name__ == "__main__":
    main()
