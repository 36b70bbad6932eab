"""The latest state of each table a connection is at, kept from full states and patches.

Protocol 2 sends a connection a full ``state`` of a table first (and after a join, resume,
spectate, rematch or ``sync``), then ``patch`` frames. ``Follower`` applies them with the
box's own applier (``hostd.protocol.patch``) and hands back plain ``State`` messages, so the
Python client, the kiosk and the terminal (which all read states through ``clients.client``)
see exactly what a full state would have said. A patch whose ``base`` is not the version held
(or that does not apply) makes the table *out of step*: the caller sends ``sync {table}``
once, and every patch is ignored until the full state comes.

Pure: no I/O; it decides nothing about a game.
"""

from __future__ import annotations

from typing import Any

import msgspec

from hostd.protocol.messages import Patch, State
from hostd.protocol.patch import PatchError, apply


class Follower:
    def __init__(self) -> None:
        self._docs: dict[str, dict[str, Any]] = {}  # table -> the latest state, as data
        self.behind: set[str] = set()  # tables waiting for the full state a sync asked for

    def state(self, msg: State) -> State:
        """A full state: it replaces whatever was held, and ends a wait for one."""
        self._docs[msg.table] = msgspec.to_builtins(msg)
        self.behind.discard(msg.table)
        return msg

    def patch(self, msg: Patch) -> tuple[State | None, bool]:
        """The state ``msg`` leads to, and whether to send ``sync`` for its table now.

        (None, True): out of step just now, ask for a full state; (None, False): already
        waiting for one, ignore this patch.
        """
        if msg.table in self.behind:
            return None, False
        doc = self._docs.get(msg.table)
        if doc is None or doc["version"] != msg.base:
            return self._lost(msg.table)
        try:
            new = apply(doc, msg.ops)
            new.update(re=msg.re, version=msg.version, presentation=None)
            state = msgspec.convert(new, State)
        except (PatchError, msgspec.ValidationError):
            return self._lost(msg.table)
        self._docs[msg.table] = new
        return state, False

    def forget(self, table: str) -> None:
        self._docs.pop(table, None)
        self.behind.discard(table)

    def _lost(self, table: str) -> tuple[None, bool]:
        self._docs.pop(table, None)
        self.behind.add(table)
        return None, True
