"""State patches: what changed between two JSON documents, and how to apply it.

The box sends a connection a full ``state`` first, then ``patch`` frames: the operations that
turn the state it sent last (``base``) into the new one (``version``). Every client applies
them the same way (this module in Python, ``clients/web/patch.js`` in the page), so the format
is kept tiny. An operation is a JSON array:

- ``["set", path, value]``: put ``value`` at ``path`` (an object's key, new or not, or a list
  element that exists);
- ``["del", path]``: remove an object's key;
- ``["push", path, [items]]``: append ``items`` to the list at ``path``.

A path is a list of object keys (strings) and list indexes (ints) from the document's root;
``[]`` is never used (a whole new document is a full state). Lists are otherwise replaced
whole: a hand that lost a card from the middle is shorter, and a set is smaller than any
list surgery.

``diff`` compares by JSON type as well as value (``true`` is not ``1``, ``1.0`` is not
``1``), so apply(diff(a, b), a) == b exactly. ``apply`` never changes its input (it copies
along the paths it writes) and raises ``PatchError`` on any operation that does not fit the
document: the client then asks for a full state. Pure: no I/O, no msgspec.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

Path = list[str | int]
Op = list[Any]

# The state fields a patch may touch (the rest of a ``state`` frame is the frame's own: its
# type, re, table, version, and the first-state-only ``presentation``).
DOC_FIELDS = ("game", "seat", "view", "legal", "to_act", "seats", "deadline", "outcome",
              "ai_speed", "name", "code", "status", "common")

# An equal-length list with more than this share of its elements changed is set whole: the
# per-element operations would cost more than the list.
_WHOLE_LIST_SHARE = 0.5


class PatchError(ValueError):
    """An operation that does not fit the document it is applied to."""


def same(a: Any, b: Any) -> bool:
    """JSON equality: the same types and values all the way down (``True`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def diff(a: Any, b: Any, path: Sequence[str | int] = (), *, loose: bool = False) -> list[Op]:
    """The operations that turn ``a`` into ``b`` (both JSON-like), at ``path`` below the root.

    ``path`` must be non-empty when ``a`` and ``b`` are not both objects: the root itself is
    never set. ``loose``: compare subtrees with Python's ``==`` (in C, several times faster),
    which takes ``true`` for ``1`` and ``1.0`` for ``1``; a caller that asks for it must
    check the result (the host compares the patched part's encoding with the new one's).
    """
    out: list[Op] = []
    _diff(a, b, list(path), out, operator.eq if loose else same)
    return out


_SCALARS = (str, int, float, bool, type(None))


def _diff(a: Any, b: Any, path: Path, out: list[Op], eq: Callable[[Any, Any], bool]) -> None:
    # Hot path (every seat, every move): each value is compared once on the way down; a
    # whole-subtree ``same`` runs only where a list needs it.
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        for k in a:
            if k not in b:
                out.append(["del", [*path, k]])
        for k, v in b.items():
            if k not in a:
                out.append(["set", [*path, k], v])
                continue
            old = a[k]
            if old is v or (eq is not same and old == v):
                continue
            tv = type(v)
            if type(old) is tv and tv in _SCALARS:
                if old != v:
                    out.append(["set", [*path, k], v])
                continue
            _diff(old, v, [*path, k], out, eq)
        return
    if ta is tb and ta in _SCALARS and a == b:
        return
    if not path:
        raise ValueError("the root of a patched document is always an object")
    if ta is list and tb is list and a:
        n = len(a)
        if len(b) > n and eq(a, b[:n]):
            out.append(["push", path, b[n:]])
            return
        if len(b) == n:
            changed = [i for i in range(n) if not eq(a[i], b[i])]
            if not changed:
                return
            if len(changed) <= max(1, int(n * _WHOLE_LIST_SHARE)):
                for i in changed:
                    _diff(a[i], b[i], [*path, i], out, eq)
                return
    elif ta is list and tb is list and not b:
        return  # both empty
    out.append(["set", path, b])


def apply(doc: dict[str, Any], ops: Sequence[Any]) -> dict[str, Any]:
    """``doc`` with ``ops`` applied; ``doc`` itself is untouched. PatchError if one misfits."""
    root: dict[str, Any] = dict(doc)
    copied: set[int] = {id(root)}  # containers already copied for this patch (safe to write)
    for op in ops:
        if not isinstance(op, list) or len(op) not in (2, 3) or not isinstance(op[0], str):
            raise PatchError(f"not an operation: {op!r}")
        kind, path = op[0], op[1]
        if not isinstance(path, list) or not path:
            raise PatchError(f"bad path: {path!r}")
        if (kind == "del") != (len(op) == 2):
            raise PatchError(f"bad operation: {op!r}")
        parent = _walk(root, path[:-1], copied)
        last = path[-1]
        if kind == "set":
            _set(parent, last, op[2])
        elif kind == "del":
            if not isinstance(parent, dict) or not isinstance(last, str) or last not in parent:
                raise PatchError(f"nothing to delete at {path!r}")
            del parent[last]
        elif kind == "push":
            target = _child(parent, last)
            if not isinstance(target, list) or not isinstance(op[2], list):
                raise PatchError(f"not a list at {path!r}")
            target = list(target)
            target.extend(op[2])
            _set(parent, last, target)
        else:
            raise PatchError(f"unknown operation {kind!r}")
    return root


def _child(parent: Any, key: Any) -> Any:
    if isinstance(parent, dict) and isinstance(key, str):
        if key not in parent:
            raise PatchError(f"no key {key!r}")
        return parent[key]
    if isinstance(parent, list) and type(key) is int and 0 <= key < len(parent):
        return parent[key]
    raise PatchError(f"no element {key!r}")


def _set(parent: Any, key: Any, value: Any) -> None:
    is_key = isinstance(parent, dict) and isinstance(key, str)
    if not is_key and not (isinstance(parent, list) and type(key) is int
                           and 0 <= key < len(parent)):
        raise PatchError(f"cannot set {key!r}")
    parent[key] = value


def _walk(root: dict[str, Any], path: Sequence[Any], copied: set[int]) -> Any:
    """The container at ``path``, copying each one on the way that this patch has not copied
    yet, so that writing into it never changes the caller's document."""
    node: Any = root
    for key in path:
        child = _child(node, key)
        if isinstance(child, dict | list) and id(child) not in copied:
            child = dict(child) if isinstance(child, dict) else list(child)
            copied.add(id(child))
            node[key] = child
        node = child
    return node
