"""Turning bytes into checked client messages, with a stable code for every way that fails.

``NDJSONSplitter`` cuts a byte stream into lines of at most ``MAX_FRAME`` bytes without ever
buffering more than that; ``parse_client`` turns one frame into a message or a ``FrameError``
naming the code and, when the frame had an ``"id"`` that can be read, the request it answers
(so a client always knows which of its requests was refused). A frame nested deeper than
``nesting.MAX_DEPTH`` is refused before any decoder recurses into it. Pure: no I/O.
"""

from __future__ import annotations

import msgspec

from hostd.protocol import codes, nesting
from hostd.protocol.messages import CLIENT_TYPES, MAX_FRAME, ClientMessage, client_decoder


class FrameError(Exception):
    """A frame the peer sent that is not a valid message. ``code`` is a ``codes`` constant;
    ``re`` the frame's request id, when it had one that could be read."""

    def __init__(self, code: str, detail: str, re: int | None = None) -> None:
        self.code = code
        self.detail = detail
        self.re = re
        super().__init__(f"{code}: {detail}")


_any_decoder = msgspec.json.Decoder()


def parse_client(frame: bytes | str) -> ClientMessage:
    """One frame (without its newline) as a client message, or FrameError."""
    data = frame.encode("utf-8", "surrogatepass") if isinstance(frame, str) else frame
    if len(data) > MAX_FRAME:
        raise FrameError(codes.FRAME_TOO_LARGE, f"a frame is at most {MAX_FRAME} bytes")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise FrameError(codes.INVALID_UTF8, "frames are UTF-8 text") from None
    if nesting.exceeds(data):
        raise _too_deep(data)
    try:
        return client_decoder.decode(data)
    except msgspec.DecodeError as e:
        first = str(e)
    except RecursionError:  # not below the limit after all (a caller deep in its stack)
        raise _too_deep(data) from None
    # Work out which failure it was, for a precise code (only on the error path).
    try:
        raw = _any_decoder.decode(data)
    except msgspec.DecodeError:
        raise FrameError(codes.INVALID_JSON, "a frame is one JSON object") from None
    except RecursionError:
        raise _too_deep(data) from None
    if not isinstance(raw, dict):
        raise FrameError(codes.BAD_MESSAGE, "a frame is one JSON object")
    re = nesting.readable_id(raw.get("id"))
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise FrameError(codes.UNKNOWN_TYPE, "unknown message type", re)
    raise FrameError(codes.BAD_MESSAGE, first, re)


def _too_deep(data: bytes) -> FrameError:
    return FrameError(codes.TOO_DEEP, f"a frame nests at most {nesting.MAX_DEPTH} levels",
                      nesting.top_level_id(data))


class NDJSONSplitter:
    """Accumulates received bytes and yields complete lines; refuses over-long lines.

    After a too-long line it discards bytes up to the next newline, so the connection can
    carry on (the caller decides whether to close it).
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | FrameError]:
        out: list[bytes | FrameError] = []
        self._buf += data
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if len(self._buf) > self.max_frame:
                    if not self._skipping:
                        out.append(FrameError(codes.FRAME_TOO_LARGE,
                                              f"a line is at most {self.max_frame} bytes"))
                    self._skipping = True
                    self._buf.clear()
                return out
            line = bytes(self._buf[:nl])
            del self._buf[: nl + 1]
            if self._skipping:
                self._skipping = False
                continue
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.max_frame:
                out.append(FrameError(codes.FRAME_TOO_LARGE, f"a line is at most {self.max_frame} bytes"))
                continue
            if line.strip():
                out.append(line)
