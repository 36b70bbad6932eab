"""Stable error codes sent in ``rejected`` messages. Clients translate them; never rename one.

Engine codes (``not_your_turn``, ``illegal_action``, ``bad_action``, ``game_over``) pass through
unchanged from ``engine.errors``.
"""

from __future__ import annotations

from engine import errors as engine_errors

# framing and decoding: the peer sent garbage
FRAME_TOO_LARGE = "frame_too_large"
INVALID_UTF8 = "invalid_utf8"
INVALID_JSON = "invalid_json"
UNKNOWN_TYPE = "unknown_type"
BAD_MESSAGE = "bad_message"  # known type, wrong or missing fields
NOT_TEXT = "not_text"  # a binary WebSocket frame
TOO_DEEP = "too_deep"  # arrays and objects nested deeper than hostd.protocol.nesting allows

# session
HELLO_FIRST = "hello_first"
UNSUPPORTED_PROTOCOL = "unsupported_protocol"
RATE_LIMITED = "rate_limited"

# tables and seats
UNKNOWN_TABLE = "unknown_table"
TABLE_CLOSED = "table_closed"
TABLE_FULL = "table_full"
SEAT_TAKEN = "seat_taken"
NAME_TAKEN = "name_taken"  # a person of that name is at the table and connected
NO_SUCH_SEAT = "no_such_seat"
BAD_TOKEN = "bad_token"
NOT_SEATED = "not_seated"
ALREADY_SEATED = "already_seated"  # this connection already holds a seat at that table
BAD_NAME = "bad_name"  # a player name that is empty, too long or has control characters
DRAINING = "draining"
# A table whose stored events no longer replay (hostd.tables.damage): kept, not playable.
TABLE_DAMAGED = "table_damaged"
NO_SUCH_GAME = "no_such_game"  # management: a game number a table never had

# players opening tables (``open``; hostd.opening)
OPEN_OFF = "open_off"  # the operator turned player tables off (``player_tables = false``)
TOO_MANY_TABLES = "too_many_tables"  # ``max_tables`` tables are open already; args.max
OPEN_LIMIT = "open_limit"  # this connection is still at a table it opened; args.table
UNKNOWN_GAME = "unknown_game"  # no such game in the catalogue; args.game
BAD_OPTION = "bad_option"  # args.option, args.reason, args.allowed
BAD_TIMER = "bad_timer"  # a turn timer that is not one of the offered choices; args.allowed

# intents
STALE_VERSION = "stale_version"
WRONG_SEAT = "wrong_seat"  # an intent for a seat this connection does not hold
NOT_YOUR_TURN = engine_errors.NOT_YOUR_TURN
ILLEGAL_ACTION = engine_errors.ILLEGAL_ACTION
BAD_ACTION = engine_errors.BAD_ACTION
GAME_OVER = engine_errors.GAME_OVER
NOT_FINISHED = "not_finished"  # a rematch asked for before the game ended

# the host
STORAGE_FAILED = "storage_failed"  # the step could not be made durable: nothing changed
INTERNAL_ERROR = "internal_error"

# social (docs/protocol.md, "Log, scores and reactions")
UNKNOWN_EMOTE = "unknown_emote"  # a reaction outside the fixed set; nothing was shown
