"""How deeply a JSON frame nests, found before any decoder sees it; and a bad frame's id.

msgspec (like the standard library's ``json``) decodes nested arrays and objects by
recursion, and a frame of a few thousand ``[`` (far under ``MAX_FRAME``) makes it raise
``RecursionError``; where exactly depends on how deep the caller's own stack already is. So
the limit is ours and explicit: ``MAX_DEPTH`` levels, checked here on the raw bytes, and a
deeper frame is refused with ``too_deep`` like any malformed frame. No message of the
protocol comes near it (an intent with its action nests a handful of levels).

``exceeds`` costs two ``bytes.count`` calls for an ordinary frame (it cannot nest deeper
than it has brackets); only a frame with more brackets than the limit is scanned, and that
scan stops at the first level past it. ``top_level_id`` reads the ``"id"`` member of a frame
that cannot be decoded, so that even its rejection names the request it answers.

Pure: bytes in, answers out; no I/O.
"""

from __future__ import annotations

import re
from typing import Any

MAX_DEPTH = 32  # arrays and objects inside one another in one frame

# A JSON string (escapes included), or a run of opening or of closing brackets. Brackets
# inside strings are not nesting, so strings are matched (and skipped) as whole tokens.
_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{]+|[\]}]+')
_ID_VALUE = re.compile(rb"\s*:\s*(-?\d{1,20})\s*[,}]")
_OPEN = frozenset(b"[{")  # the first byte of a run of openers
_ID_KEY = b'"id"'


def readable_id(value: Any) -> int | None:
    """``value`` as a request id if the protocol could have read it as one (an int, as msgspec
    decodes ``id``: not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def exceeds(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether ``data`` nests arrays and objects more than ``limit`` deep (outside strings).

    Exact for valid JSON; for broken JSON (an unterminated string) it may count brackets a
    decoder would not reach, which only ever turns one refusal code into another.
    """
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # the common case: not even that many brackets
    depth = 0
    for m in _TOKENS.finditer(data):
        token = m.group()
        first = token[0]
        if first in _OPEN:
            depth += len(token)
            if depth > limit:
                return True
        elif first != 0x22:  # closers (a string, starting with '"', is skipped)
            depth -= len(token)
    return False


def top_level_id(data: bytes) -> int | None:
    """The integer ``"id"`` member of the outermost object of ``data``, if there is one.

    For frames the decoder refuses (too deep): a scan of the tokens, keeping track of the
    level, so an ``"id"`` inside an action is not taken for the request's.
    """
    if _ID_KEY not in data:
        return None
    depth = 0
    for m in _TOKENS.finditer(data):
        token = m.group()
        first = token[0]
        if first in _OPEN:
            depth += len(token)
        elif first != 0x22:
            depth -= len(token)
        elif depth == 1 and token == _ID_KEY:
            value = _ID_VALUE.match(data, m.end())
            if value is not None:
                return readable_id(int(value.group(1)))
    return None
