"""Plain game data (views, actions, outcomes) to JSON bytes, for the host's hot path.

``to_data`` is the engine's one generic codec (``engine.codec.to_data``, which walks each
dataclass with a per-class field list computed once); ``encode_data`` makes the JSON bytes
that ``State`` frames embed as they are (``Raw``). Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.codec import to_data

_encoder = msgspec.json.Encoder()

__all__ = ["encode_data", "to_data"]


def encode_data(obj: Any) -> bytes:
    """The JSON bytes of plain game data."""
    return _encoder.encode(to_data(obj))
