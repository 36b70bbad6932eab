"""Chaos: SIGKILL the daemon again and again while many tables play; nothing shown is lost.

The lives of the daemon come from ``test_kill9`` (each life seats two people at every table,
joining or resuming with their tokens, and plays with computer players in the other seats);
this test runs many more of them over many more tables at once, so kills land in the middle
of group commits of several tables, of deals, of joins and resumes. After every restart each
table must come back at (or, for a step committed but not yet delivered, just after) the last
version anybody saw. At the end every game is played out and its record must replay as
valid, with every state any client was ever shown equal to the replay at that version.
When every game of the tables in play has ended, they are checked so and a new set is
opened, so that kills keep landing in the middle of games.

``make test`` runs 5 kills; ``make chaos`` (``-m slow``) runs 50.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import trio

from engine import registry
from engine.codec import to_data
from engine.records import replay
from hostd.control import request
from tests.hostd.helpers import GAMES, PLAYERS, short_dir, start_process
from tests.hostd.test_kill9 import Seen, play_life
from tests.hostd.test_leaks import true_states

TABLES_PER_GAME = 3


# Every registered game's tables, two people each, all from 127.0.0.1: more connections from
# one address than the default per-address limit, which is not what this test is about.
DAEMON_ARGS = ("--ai-processes", "0", "--max-connections-per-address", "1000")

def new_tables(control: Path) -> dict[str, dict[str, Any]]:
    return {f"{g}{i}": request(control, "tables.new", game=g, players=PLAYERS[g], ai="random")
            for g in GAMES for i in range(TABLES_PER_GAME)}


def all_finished(control: Path, tables: dict[str, dict[str, Any]]) -> bool:
    return all(request(control, "tables.show", table=t["id"])["status"] != "playing"
               for t in tables.values())


def check_records(control: Path, tables: dict[str, dict[str, Any]], seen: Seen) -> None:
    """Every game finished, replays as valid, and showed exactly the replay's states."""
    for name, t in tables.items():
        record = request(control, "export", table=t["id"])
        assert record["outcome"] is not None, f"{name} did not finish"
        result = replay(record)
        assert result.valid, (name, result.error)
        states = true_states(record)
        game = registry.get(record["game"])
        for (tid, seat), shown in seen.states.items():
            if tid != t["id"]:
                continue
            for s in shown:
                assert s.view == to_data(game.view(states[s.version], seat)), (
                    f"{name} seat {seat} was shown version {s.version} differently")


def kill_again_and_again(kills: int, seed: int) -> None:
    """``kills`` SIGKILLs at random moments; when every game of a set of tables has ended,
    their records are checked and a new set is opened, so kills keep landing in play."""
    rng = random.Random(seed)
    tmp = short_dir()
    data, control = tmp / "data", tmp / "c.sock"
    d = start_process(data, control, *DAEMON_ARGS)
    seen = Seen()
    try:
        tables = new_tables(control)
        lives_that_played = 0
        for life in range(kills + 1):
            if life:
                d = start_process(data, control, *DAEMON_ARGS)
            if life < kills and all_finished(control, tables):
                check_records(control, tables, seen)
                tables, seen = new_tables(control), Seen()
            before = {t["id"]: seen.last_version(t["id"]) for t in tables.values()}
            # Each life but the last is cut short at a random moment; the last plays out.
            kill_after = 0.05 + rng.random() * 0.6 if life < kills else None
            first = trio.run(play_life, d, tables, seen, rng, kill_after)
            if sum(seen.last_version(tid) for tid in before) > sum(before.values()):
                lives_that_played += 1
            for tid, version in before.items():
                assert first[tid].version >= version, (
                    f"life {life}: table {tid} came back at {first[tid].version}, "
                    f"but {version} was shown")
        assert lives_that_played > kills // 2, "most kills must land while tables play"
        d.terminate()
        d = start_process(data, control, *DAEMON_ARGS)
        check_records(control, tables, seen)
    finally:
        d.kill()


def test_five_kills_while_many_tables_play() -> None:
    kill_again_and_again(5, 20250105)


@pytest.mark.slow
def test_fifty_kills_while_many_tables_play() -> None:
    kill_again_and_again(50, 20250150)
