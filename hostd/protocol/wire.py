"""Plain game data (views, actions, outcomes) to JSON bytes, for the host's hot path.

``to_data`` is the engine's one generic codec (``engine.codec.to_data``); ``encode_data``
makes the same JSON as bytes, which ``State`` frames embed as they are (``Raw``). The host
renders every seat's view and legal actions on every move, so it goes through the codec's
``to_wire``, which hands msgspec whatever holds no dataclass without walking it (a test
checks the bytes are ``to_data``'s on every game's views). Mirroring each dataclass as a
msgspec Struct and converting into it was measured too: no faster for Euchre's views and
three times slower for lists of legal actions, so it was not kept. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.codec import Memo, to_data, to_wire

_encoder = msgspec.json.Encoder()

__all__ = ["Memo", "encode_data", "to_data", "to_wire"]


def encode_data(obj: Any, memo: Memo | None = None) -> bytes:
    """The JSON bytes of plain game data: exactly ``to_data``'s, encoded. ``memo``: one dict
    for the views of one state (see ``to_wire``)."""
    return _encoder.encode(to_wire(obj, memo))
