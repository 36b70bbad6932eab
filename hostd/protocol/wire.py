"""Plain game data (views, actions, outcomes) to JSON bytes, fast, for the host's hot path.

``to_data`` gives exactly what ``engine.codec.to_data`` gives (the same ``"type"`` tags, from
``engine.codec.tag_of``; a test checks they agree on every view and action of random games of
every game) but walks each dataclass with a per-class field list computed once, which is
3-4x faster: a table renders a view and the legal actions for every seat on every move.
``encode_data`` makes the JSON bytes that ``State`` frames embed as they are (``Raw``).

Pure: no I/O. Should ``engine.codec.to_data`` adopt this walk, this module becomes a thin
alias of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import msgspec

from engine.codec import tag_of

_SCALARS = (str, int, bool, float, type(None))
_SPECS: dict[type, tuple[str, tuple[str, ...]]] = {}
_encoder = msgspec.json.Encoder()


def to_data(obj: Any) -> Any:
    """JSON-ready values of plain data, dataclasses tagged with ``"type"``."""
    t = type(obj)
    if t in _SCALARS:
        return obj
    spec = _SPECS.get(t)
    if spec is not None:
        out: dict[str, Any] = {"type": spec[0]}
        for name in spec[1]:
            value = getattr(obj, name)
            out[name] = value if type(value) in _SCALARS else to_data(value)
        return out
    if t is tuple or t is list:
        return [x if type(x) in _SCALARS else to_data(x) for x in obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        _SPECS[t] = (tag_of(t), tuple(f.name for f in dataclasses.fields(obj)))
        return to_data(obj)
    if isinstance(obj, _SCALARS):  # subclasses of int or str (an IntEnum)
        return obj
    if isinstance(obj, tuple | list):
        return [to_data(x) for x in obj]
    if isinstance(obj, Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    raise TypeError(f"cannot encode {t.__name__}")


def encode_data(obj: Any) -> bytes:
    """The JSON bytes of plain game data."""
    return _encoder.encode(to_data(obj))
