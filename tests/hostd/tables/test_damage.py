"""Replay that never loses a table (``hostd.tables.damage``), without a daemon."""

from __future__ import annotations

from typing import Any

import pytest

from hostd.tables.core import TableCore, TableMeta
from hostd.tables.damage import DamagedTable, replay


# -- the pure replay ---------------------------------------------------------------------------
def _toy_log() -> tuple[TableMeta, list[tuple[str, dict[str, Any]]]]:
    """A two-seat toy table's log: two levels and the deal; seat 0 is to play."""
    _, events = TableCore.create(TableMeta("7", "ABCD", "t", "toy", 2, {}, 5), ["random"])
    return TableMeta("7", "ABCD", "t", "toy", 2, {}, 5), events


@pytest.mark.parametrize(("mangle", "code", "step"), [
    (lambda ev: [*ev, ("step", {"seat": 1, "action": {"type": "play", "card": "AS"}})],
     "not_your_turn", 1),
    (lambda ev: [*ev, ("step", {"undecodable": "{not json"})], "bad_event", 1),
    (lambda ev: [*ev, ("teleport", {})], "bad_event", 1),
    (lambda ev: [("level", {"seat": 9, "level": "random"}), *ev], "bad_event", 0),
])
def test_replay_names_the_first_event_that_does_not_fit(mangle: Any, code: str,
                                                         step: int) -> None:
    meta, events = _toy_log()
    assert isinstance(replay(meta, events), TableCore)
    damaged = replay(meta, mangle(events))
    assert isinstance(damaged, DamagedTable)
    assert (damaged.damage.code, damaged.damage.game, damaged.damage.step) == (code, 1, step)
    assert "seed" not in damaged.record() and damaged.summary()["status"] == "damaged"


def test_a_game_that_is_not_installed_is_damaged_not_fatal() -> None:
    meta, events = _toy_log()
    meta.game = "no_such_game"
    damaged = replay(meta, events)
    assert isinstance(damaged, DamagedTable) and damaged.damage.code == "unknown_game"
    assert damaged.title() == "no_such_game" and damaged.record()["rules_version"] is None


def test_options_that_no_longer_decode_are_damage_not_defaults() -> None:
    # Falling back to the default options would replay a different game without a word.
    meta, events = _toy_log()
    meta.options = {"undecodable": "not json"}
    damaged = replay(meta, events)
    assert isinstance(damaged, DamagedTable) and damaged.damage.code == "bad_option"
