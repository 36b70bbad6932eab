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
- Pure: no I/O, no trio, no logging; values are never changed once encoded.
"""

from __future__ import annotations

from typing import Any

import msgspec

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
    """One encoded part: its bytes and, for an object, each key's bytes (decoded lazily)."""

    __slots__ = ("_data", "_values", "keys", "raw")

    def __init__(self, raw: bytes, keys: dict[str, bytes] | None = None) -> None:
        self.raw = raw
        self.keys = keys
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
