"""The wire protocol: messages (msgspec Structs), error codes, message keys and NDJSON framing.

No I/O, no trio, no logging: pure data and parsing, shared by the daemon and every client.
See docs/protocol.md.
"""

from hostd.protocol.messages import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
