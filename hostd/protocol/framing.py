"""Turning bytes into checked client messages, with a stable code for every way that fails.

``NDJSONSplitter`` cuts a byte stream into lines of at most ``MAX_FRAME`` bytes without ever
buffering more than that; ``parse_client`` turns one frame into a message or a ``FrameError``
naming the code. Pure: no I/O.
"""

from __future__ import annotations

import msgspec

from hostd.protocol import codes
from hostd.protocol.messages import CLIENT_TYPES, MAX_FRAME, ClientMessage, client_decoder


class FrameError(Exception):
    """A frame the peer sent that is not a valid message. ``code`` is a ``codes`` constant."""

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail
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
    try:
        return client_decoder.decode(data)
    except msgspec.DecodeError as e:
        first = str(e)
    # Work out which failure it was, for a precise code (only on the error path).
    try:
        raw = _any_decoder.decode(data)
    except msgspec.DecodeError:
        raise FrameError(codes.INVALID_JSON, "a frame is one JSON object") from None
    if not isinstance(raw, dict):
        raise FrameError(codes.BAD_MESSAGE, "a frame is one JSON object")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise FrameError(codes.UNKNOWN_TYPE, "unknown message type")
    raise FrameError(codes.BAD_MESSAGE, first)


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
