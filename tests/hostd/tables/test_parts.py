"""Parts split by key make the very bytes and the very patches the whole parts made.

- For every registered game, over a random game, every seat's view, legal list and common
  part encoded key by key is byte for byte msgspec's encoding of the whole (what protocol 2
  sent before the split), also where a field's bytes are reused from the seat's part of the
  state before because the game kept the very object (so no game changes a view's value in
  place).
- Between consecutive states, ``parts.ops`` gives exactly the operations of the reference (a
  loose ``patch.diff`` of the whole decoded parts, kept only if the patched part encodes to
  the new part's bytes), with one memo shared by every seat of a state as the core uses it;
  and applying them to the old part gives the new part.
- Where the loose diff would be wrong (``true`` for ``1``, ``1.0`` for ``1``, anywhere in a
  changed key) or the keys come in another order, ``ops`` says None: the host then sends the
  full state.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engine import registry
from engine.codec import to_wire
from engine.match import Match
from hostd.protocol import patch
from hostd.tables import parts

enc = msgspec.json.Encoder().encode
PARTS = ("view", "legal", "common")


def reference(name: str, old: bytes, new: bytes) -> list[Any] | None:
    """What the host did before parts were split: diff the whole decoded parts, then check."""
    a, b = msgspec.json.decode(old), msgspec.json.decode(new)
    if old == new:
        return []
    ops = patch.diff(a, b, (name,), loose=True)
    if enc(patch.apply({name: a}, ops)[name]) != new:
        return None
    return ops


def seat_parts(m: Match, seat: int | None, before: tuple[parts.Part, ...] | None
               ) -> tuple[tuple[Any, Any, Any], tuple[parts.Part, parts.Part, parts.Part]]:
    """The seat's parts as wire data, and encoded as the core does (the view and the common
    part field by field, reusing the bytes of the seat's parts of the state before)."""
    seen = m.view(seat)
    legal = m.legal(seat) if seat is not None else ()
    common = m.game.common(seen)
    wires = (to_wire(seen), to_wire(legal), to_wire(common))
    encoded = (parts.encode_fields(seen, before[0] if before else None, {}),
               parts.encode(wires[1]),
               parts.encode_fields(common, before[2] if before else None))
    return wires, encoded


@pytest.mark.parametrize("game", registry.ids())
def test_split_parts_encode_and_diff_exactly_as_the_whole_parts(game: str) -> None:
    g = registry.get(game)
    n = 4 if 4 in g.info.players else max(g.info.players)
    m = Match.start(g, n, None, 3)
    rng = random.Random(5)
    held: dict[int | None, tuple[parts.Part, ...]] = {}
    compared = 0
    for _ in range(120):
        memo: parts.OpsMemo = {}
        for seat in [None, *range(n)]:
            before = held.get(seat)
            wires, now = seat_parts(m, seat, before)
            for part, w in zip(now, wires, strict=True):
                assert part.raw == enc(w) == parts.encode(w).raw
                if part.keys is not None:
                    assert part.keys == parts.encode(w).keys
            if before is not None:
                for name, old, new in zip(PARTS, before, now, strict=True):
                    got = parts.ops(name, old, new, memo)
                    assert got == reference(name, old.raw, new.raw), (game, seat, name)
                    if got:
                        compared += 1
                        patched = patch.apply({name: msgspec.json.decode(old.raw)}, got)[name]
                        assert enc(patched) == new.raw
            held[seat] = now
        if m.outcome() is not None:
            break
        to_act = m.to_act()
        seat = to_act[rng.randrange(len(to_act))]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
        m.resolve_chance()
    assert compared > 0


def part(value: dict[str, Any]) -> parts.Part:
    got = parts.encode(value)
    assert got.raw == enc(value) and got.keys is not None
    return got


@pytest.mark.parametrize(("old", "new"), [
    ({"type": "v", "n": 1, "x": 0}, {"type": "v", "n": True, "x": 1}),
    ({"type": "v", "n": 1.0}, {"type": "v", "n": 1}),
    ({"type": "v", "hand": [1, True]}, {"type": "v", "hand": [True, 2]}),
    ({"type": "v", "deep": {"a": [0, {"b": False}], "c": 1}},
     {"type": "v", "deep": {"a": [0, {"b": 0}], "c": 2}}),
])
def test_a_change_equal_to_python_but_not_as_json_means_a_full_state(
        old: dict[str, Any], new: dict[str, Any]) -> None:
    assert parts.ops("view", part(old), part(new)) is None
    assert reference("view", enc(old), enc(new)) is None


def test_keys_that_come_and_go_patch_in_order_or_say_the_whole() -> None:
    old = part({"type": "v", "a": 1, "b": [1, 2]})
    grown = part({"type": "v", "a": 1, "b": [1, 2, 3], "c": "new"})
    ops = parts.ops("view", old, grown)
    assert ops == [["push", ["view", "b"], [3]], ["set", ["view", "c"], "new"]]
    assert ops == reference("view", old.raw, grown.raw)
    shrunk = part({"type": "v", "b": [1, 2]})
    assert parts.ops("view", old, shrunk) == [["del", ["view", "a"]]]
    reordered = part({"type": "v", "b": [1, 2], "a": 2})
    assert parts.ops("view", old, reordered) is None
    assert reference("view", old.raw, reordered.raw) is None


def test_a_key_the_encoder_escapes_leaves_the_part_whole() -> None:
    value = {"type": "v", 'quote"d': 1}
    got = parts.encode(value)
    assert got.keys is None and got.raw == enc(value)
    later = parts.encode({"type": "v", 'quote"d': 2})
    assert parts.ops("view", got, later) == [["set", ["view", 'quote"d'], 2]]
