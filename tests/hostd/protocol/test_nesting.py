"""The nesting limit and the ids of refused frames (``hostd.protocol.nesting``, ``framing``).

``exceeds`` agrees with the real depth of any JSON value (brackets inside strings do not
count); a frame past the limit is ``too_deep`` before msgspec can recurse into it; and every
refusal names the frame's request id when the frame had one that can be read.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostd.protocol import codes
from hostd.protocol.framing import FrameError, parse_client
from hostd.protocol.messages import Intent
from hostd.protocol.nesting import MAX_DEPTH, exceeds, readable_id, top_level_id


def depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


def _nest(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)


values = st.recursive(st.none() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
                      _nest, max_leaves=40)


@given(values, st.integers(0, 8))
def test_exceeds_is_the_depth_of_any_value(value: Any, limit: int) -> None:
    data = json.dumps(value).encode()
    assert exceeds(data, limit) == (depth(value) > limit)


def test_msgspec_alone_raises_recursion_error_on_deep_frames() -> None:
    # Why the limit is ours: the decoder's own failure is an exception, not a DecodeError.
    with pytest.raises(RecursionError):
        msgspec.json.decode(b"[" * 5000 + b"]" * 5000)


@pytest.mark.parametrize("frame, re", [
    (b"[" * 5000 + b"]" * 5000, None),
    (b"[" * 5000, None),  # never closed: still refused before decoding
    (b'{"a":' * 3000 + b"1" + b"}" * 3000, None),
    (b'{"type":"ping","id":9,"x":' + b"[" * 3000 + b"]" * 3000 + b"}", 9),
    (b'{"type":"ping","x":' + b'[{"id":4}' * 40 + b"]" * 40 + b',"id": 5}', 5),
])
def test_a_deep_frame_is_too_deep_with_its_id(frame: bytes, re: int | None) -> None:
    with pytest.raises(FrameError) as e:
        parse_client(frame)
    assert (e.value.code, e.value.re) == (codes.TOO_DEEP, re)


def test_the_limit_is_exact_and_ordinary_messages_are_far_below_it() -> None:
    inner = b"[" * (MAX_DEPTH - 2) + b"]" * (MAX_DEPTH - 2)
    at_limit = b'{"type":"intent","table":"1","version":1,"action":{"a":' + inner + b"}}"
    assert not exceeds(at_limit)
    assert isinstance(parse_client(at_limit), Intent)  # 32 levels: decoded as usual
    one_more = at_limit.replace(b"[", b"[[", 1).replace(b"]", b"]]", 1)
    with pytest.raises(FrameError) as e:
        parse_client(one_more)
    assert e.value.code == codes.TOO_DEEP


@pytest.mark.parametrize("frame, code, re", [
    (b'{"type":"join","id":5}', codes.BAD_MESSAGE, 5),
    (b'{"type":"nope","id":6}', codes.UNKNOWN_TYPE, 6),
    (b'{"type":"ping","id":true}', codes.BAD_MESSAGE, None),  # not an id it could read
    (b'{"type":"ping","id":"7"}', codes.BAD_MESSAGE, None),
    (b'{"type":"join","id":99999999999999999999999}', codes.BAD_MESSAGE, 10**23 - 1),
    (b'{"type":"intent","id":8,"table":"1","version":"x","action":{}}', codes.BAD_MESSAGE, 8),
    (b'{"type":"ping","id":9', codes.INVALID_JSON, None),
    (b"[1, 2]", codes.BAD_MESSAGE, None),
])
def test_every_refusal_names_the_id_it_could_read(frame: bytes, code: str,
                                                  re: int | None) -> None:
    with pytest.raises(FrameError) as e:
        parse_client(frame)
    assert (e.value.code, e.value.re) == (code, re)


def test_ids() -> None:
    assert readable_id(3) == 3 and readable_id(-1) == -1
    assert readable_id(True) is None and readable_id("1") is None and readable_id(1.0) is None
    assert top_level_id(b'{"a":{"id":1},"id":2}') == 2
    assert top_level_id(b'{"a":"\\"id\\":3","b":1}') is None  # inside a string
    assert top_level_id(b'{"name":"id","x":1}') is None  # a value, not a key
    assert top_level_id(b'[{"id":1}]') is None  # not the outermost object
