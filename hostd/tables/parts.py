"""A state's encoded parts (view, legal actions, common part), split by key, and the patch
operations between two of them.

The table core encodes each seat's parts once per state and diffs them against what each
connection was sent last. Encoding an object part key by key keeps each key's JSON apart, so
a patch compares keys as bytes (exact JSON equality, in C) and decodes, diffs and checks only
the keys that changed: on a move most of a view (a board, the tricks, the scores) is the
same bytes as before, and neither it nor its check costs anything.

Rules this module lives by:

- ``Part.raw`` is byte for byte what ``msgspec.json.encode`` makes of the whole value (the
  keys joined as it joins them); a key the encoder would escape leaves the part unsplit.
- ``ops`` returns exactly the operations ``patch.diff(old, new, (name,), loose=True)`` returns
  on the decoded parts, or None where the host's check (the patched part must encode to the
  new part's very bytes) would fail: the caller then sends the full state. So splitting
  changes the cost, never a frame.
- ``encode_fields`` makes a dataclass's part as ``engine.codec.to_wire`` would (it reads
  the codec's per-class record of tag, fields and which fields to walk), and reuses a key's
  bytes from the seat's previous part only for the very same field object: engine values
  are immutable, so the same object is the same JSON.
- Pure: no I/O, no trio, no logging; values are never changed once encoded.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec

from engine import codec
from engine.codec import Memo, to_wire
from hostd.protocol import patch

_encoder = msgspec.json.Encoder()
_encode = _encoder.encode
_decode = msgspec.json.decode
_prefixes: dict[str, bytes] = {}  # key -> b'"key":', for the keys the encoder does not escape


def _learn(key: Any) -> bytes | None:
    if type(key) is not str:
        return None
    quoted = _encode(key)
    if quoted != b'"' + key.encode() + b'"':
        return None
    got = _prefixes[key] = quoted + b":"
    return got


class Part:
    """One encoded part: its bytes and, for an object, each key's bytes (decoded lazily);
    for a dataclass, also the field values they were made of (``fields``, kept so that the
    next state's part can reuse a key's bytes for the very same object)."""

    __slots__ = ("_data", "_values", "fields", "keys", "raw")

    def __init__(self, raw: bytes, keys: dict[str, bytes] | None = None,
                 fields: dict[str, Any] | None = None) -> None:
        self.raw = raw
        self.keys = keys
        self.fields = fields
        self._data: Any = None
        self._values: dict[str, Any] = {}

    def data(self) -> Any:
        """The whole part decoded (once)."""
        if self._data is None:
            self._data = _decode(self.raw)
        return self._data

    def value(self, key: str) -> Any:
        """One key's value decoded (once)."""
        values = self._values
        if key not in values:
            assert self.keys is not None
            values[key] = _decode(self.keys[key])
        return values[key]


def encode(wire: Any) -> Part:
    """``wire`` (what ``engine.codec.to_wire`` makes) encoded, an object key by key."""
    if type(wire) is not dict or not wire:
        return Part(_encode(wire))
    keys: dict[str, bytes] = {}
    chunks: list[bytes] = []
    known = _prefixes.get
    enc = _encode
    for k, v in wire.items():
        prefix = known(k) or _learn(k)
        if prefix is None:
            return Part(enc(wire))
        b = keys[k] = enc(v)
        chunks.append(prefix + b)
    return Part(b"{" + b",".join(chunks) + b"}", keys)


_SCALARS = (str, int, float, bool, type(None))
_MISSING = object()


def encode_fields(obj: Any, prev: Part | None = None, memo: Memo | None = None) -> Part:
    """``encode(to_wire(obj, memo))`` for a dataclass (a view, a common part), the same
    bytes, made field by field: a field that holds the very object it held in ``prev`` (the
    seat's part of the state before: states are immutable and share what a step did not
    change, such as the scores or the board's rows) reuses that key's bytes, neither walked
    nor encoded again. It follows ``engine.codec.to_wire``'s top level: the tag, then each
    field as it is, or walked (with ``memo``) where its type hints allow a dataclass; anything
    else goes through ``to_wire`` whole."""
    t = type(obj)
    spec = codec._WIRE.get(t)  # the codec's own per-class record (tag, fields, walked), read only
    if spec is None:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            return encode(to_wire(obj, memo))
        spec = codec._wire_spec(t)
    tag, names, _get, walk = spec
    fields = getattr(obj, "__dict__", None)
    if fields is None or len(fields) != len(names) or "type" in fields:
        return encode(to_wire(obj, memo))
    old = prev.fields if prev is not None and prev.keys is not None else None
    old_keys = prev.keys if old is not None and prev is not None else None
    tag_bytes = _encode(tag)
    keys: dict[str, bytes] = {"type": tag_bytes}
    chunks = [b'"type":' + tag_bytes]
    known = _prefixes.get
    enc = _encode
    for k, v in fields.items():
        prefix = known(k) or _learn(k)
        if prefix is None:
            return encode(to_wire(obj, memo))
        if old is not None and old_keys is not None and old.get(k, _MISSING) is v \
                and k in old_keys:
            b = old_keys[k]
        elif type(v) in _SCALARS or k not in walk:
            b = enc(v)
        elif memo is None:
            b = enc(to_wire(v))
        else:
            hit = memo.get(id(v))
            if hit is None or hit[0] is not v:
                hit = memo[id(v)] = (v, to_wire(v, memo))
            b = enc(hit[1])
        keys[k] = b
        chunks.append(prefix + b)
    return Part(b"{" + b",".join(chunks) + b"}", keys, fields)


# Per render: (part name, key, old bytes, new bytes) -> that key's checked operations (None:
# the check failed). The seats of one state share most of their keys' bytes (the board, the
# tricks, the scores), so each such change is diffed and checked once, not once per seat.
OpsMemo = dict[tuple[str, str, bytes, bytes], list[patch.Op] | None]


def ops(name: str, old: Part, new: Part, memo: OpsMemo | None = None) -> list[patch.Op] | None:
    """The operations taking ``old`` to ``new`` at ``[name]``, checked; None if the check fails.

    The loose diff (Python's ``==``, where ``true`` is ``1``) is checked where it matters:
    the patched value must encode to the very bytes of the new one.
    """
    if old.raw == new.raw:
        return []
    ok, nk = old.keys, new.keys
    if ok is None or nk is None:
        out = patch.diff(old.data(), new.data(), (name,), loose=True)
        if _encode(_apply(old.data(), out, 1)) != new.raw:
            return None
        return out
    out = [["del", [name, k]] for k in ok if k not in nk]
    for k, nb in nk.items():
        ob = ok.get(k)
        if ob == nb:
            continue
        if memo is None:
            sub = _key_ops(name, k, old, new, ob, nb)
        else:
            mk = (name, k, ob or b"", nb)
            if mk in memo:
                sub = memo[mk]
            else:
                sub = memo[mk] = _key_ops(name, k, old, new, ob, nb)
        if sub is None:
            return None
        out += sub
    if list(ok) != list(nk):
        # Keys came, went or moved: the patched object (kept keys in the old order, new ones
        # after them) must also have the new one's key order.
        order = [k for k in ok if k in nk] + [k for k in nk if k not in ok]
        if order != list(nk):
            return None
    return out


def _key_ops(name: str, k: str, old: Part, new: Part, ob: bytes | None, nb: bytes
             ) -> list[patch.Op] | None:
    """One changed key's checked operations (``ob`` None: the key is new)."""
    nv = new.value(k)
    if ob is None:
        return [["set", [name, k], nv]] if _encode(nv) == nb else None
    ov = old.value(k)
    if ov == nv:
        return None  # equal to Python, not as JSON (true for 1): the diff would miss it
    sub = patch.diff(ov, nv, (name, k), loose=True)
    if len(sub) == 1 and sub[0][0] == "set" and len(sub[0][1]) == 2:
        patched = sub[0][2]  # the key set whole
    else:
        patched = _apply(ov, sub, 2)
    return sub if _encode(patched) == nb else None


def _apply(doc: Any, ops: list[patch.Op], skip: int) -> Any:
    """A copy of ``doc`` with ``ops`` applied, their paths read from index ``skip`` on.

    Only for the operations ``patch.diff`` just made of ``doc`` (they always fit it), so
    unlike ``patch.apply`` it checks nothing: it copies each container along a path once and
    writes into the copy (``doc`` itself is never changed).
    """
    holder = [doc]
    copied = {id(holder)}
    for op in ops:
        node: Any = holder
        key: Any = 0
        for p in op[1][skip:]:
            child = node[key]
            if id(child) not in copied:
                child = child.copy()
                copied.add(id(child))
                node[key] = child
            node, key = child, p
        kind = op[0]
        if kind == "set":
            node[key] = op[2]
        elif kind == "del":
            del node[key]
        else:
            node[key] = [*node[key], *op[2]]
    return holder[0]
