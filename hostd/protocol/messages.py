"""Every protocol message, as tagged msgspec Structs, and the encoders/decoders built once.

Client messages may carry an ``id`` that the host echoes as ``re`` in its direct answer, so a
client library can match replies to requests. Human-facing text is never sent as prose: it is a
message key with arguments (``Text``), which clients translate.

Game actions and views travel as plain JSON objects produced by the engine's generic codec
(``engine.codec``); this module does not know any game.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

# 2: states after a connection's first are sent as patches (``Patch``, ``Sync``). A box
# speaks only the versions in SUPPORTED_PROTOCOLS; ``hello`` with another is refused.
PROTOCOL_VERSION = 2
SUPPORTED_PROTOCOLS = (2,)
MAX_FRAME = 64 * 1024  # bytes in one NDJSON line or WebSocket text frame
PING_AFTER = 5.0  # a client pings a link that has been idle this long
DEAD_AFTER = 25.0  # a link silent this long is dead


class Text(msgspec.Struct, frozen=True):
    """A message key and its arguments, e.g. ``Text("notice.joined", {"name": "Ana"})``."""

    key: str
    args: dict[str, str | int] = {}


# -- client -> host ------------------------------------------------------------------------------
class _Request(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type",
               kw_only=True):
    id: int | None = None


class Hello(_Request, tag="hello", frozen=True):
    protocol: int = PROTOCOL_VERSION
    client: str = ""
    lang: str = "en"


class ListTables(_Request, tag="list_tables", frozen=True):
    pass


class Join(_Request, tag="join", frozen=True):
    """Take a seat at the table with join ``code`` (any free seat unless ``seat`` is given)."""

    code: str
    name: str
    seat: int | None = None


class Resume(_Request, tag="resume", frozen=True):
    """Come back to a seat with the token ``joined`` gave."""

    token: str


class Spectate(_Request, tag="spectate", frozen=True):
    """Watch a table (public view only), by id or join code."""

    table: str


class Intent(_Request, tag="intent", frozen=True):
    """One action for the connection's seat at ``table``, based on state ``version``.

    ``seat`` is optional; when given it must be the seat this connection holds there
    (``wrong_seat`` otherwise), so a client confused about its seat is told, not obeyed.
    """

    table: str
    version: int
    action: dict[str, Any]
    seat: int | None = None


class Leave(_Request, tag="leave", frozen=True):
    table: str


class Rematch(_Request, tag="rematch", frozen=True):
    table: str


class Games(_Request, tag="games", frozen=True):
    """What a player may open here: the games, their options, the turn timers (``catalogue``)."""


class Open(_Request, tag="open", frozen=True):
    """Open a table of ``game`` and take its first free seat as ``player``, in one step.

    Answered exactly as a ``join`` (``joined``, then the state). ``options`` are the game's
    (anything left out keeps its default), ``name`` the table's ("" : the game's title),
    ``turn_timer`` one of the offered choices in seconds (0: none; null: the box's default)
    and ``players`` a seat count the game allows (null: its default).
    """

    game: str
    player: str
    options: dict[str, Any] = {}
    name: str = ""
    turn_timer: int | None = None
    players: int | None = None


class Ping(_Request, tag="ping", frozen=True):
    pass


class ClientBye(_Request, tag="bye", frozen=True):
    pass


# -- state patches (protocol 2) -----------------------------------------------------------
class Sync(_Request, tag="sync", frozen=True):
    """Ask for a full state of a table this connection is at (after a patch that did not
    follow the version it holds, or did not apply): the answer is a ``state`` with ``re``."""

    table: str


# -- social: the game log, the score sheet, reactions (docs/protocol.md, "Log, scores and
# reactions") ---------------------------------------------------------------------------------
EMOTES = ("thumbs_up", "clap", "laugh", "wow", "think", "oops")  # a fixed set: no free text


class HistoryRequest(_Request, tag="history", frozen=True):
    """This connection's account of the game in play at ``table``: its log and score sheet."""

    table: str


class React(_Request, tag="react", frozen=True):
    """Show one of ``EMOTES`` beside this connection's seat at ``table``, to everyone there."""

    table: str
    emote: str
# -- end social ---------------------------------------------------------------------------------


ClientMessage = (Hello | ListTables | Join | Resume | Spectate | Intent | Leave | Rematch | Games
                 | Open | Ping | ClientBye | HistoryRequest | React | Sync)
CLIENT_TYPES = ("hello", "list_tables", "join", "resume", "spectate", "intent", "leave",
                "rematch", "games", "open", "ping", "bye", "history", "react", "sync")


# -- host -> client ------------------------------------------------------------------------------
# Host messages accept unknown fields when decoded: a box may add optional fields (an
# additive change within one protocol version) and older clients must not choke on them.
class _Reply(msgspec.Struct, frozen=True, tag_field="type",
             kw_only=True,
             omit_defaults=False):
    re: int | None = None


class Welcome(_Reply, tag="welcome", frozen=True):
    protocol: int = PROTOCOL_VERSION
    server: str = ""
    box: str = ""
    ping_after: float = PING_AFTER
    dead_after: float = DEAD_AFTER
    # IP-literal base URLs of the web page (many phones cannot resolve .local names);
    # a table's join link is ``{url}/?code={code}``.
    join_urls: list[str] = []
    # The box's release: a web page reloads itself at its next idle moment when this changes
    # (an additive field: the protocol version stays). Not named "version": a state's
    # ``version`` is an int, and a client decoding every message into one shape (the load
    # generator does) must not meet the same name with two types.
    release: str = ""
    # The box's own Wi-Fi as a ``WIFI:`` QR text, while the hotspot is on ("" otherwise): the
    # kiosk shows it beside the join code. Not a secret from anyone in the room: it is the
    # code printed on the tables (docs/operations.md, "The box's own Wi-Fi").
    wifi: str = ""


class SeatSummary(msgspec.Struct, frozen=True):
    seat: int
    name: str
    controller: Literal["human", "ai"]
    level: str  # the AI level that plays (or would cover) this seat
    connected: bool  # a person's link is up (always true for an AI seat)
    covered: bool  # a person's seat that the AI is playing for now
    team: int


class TableSummary(msgspec.Struct, frozen=True):
    id: str
    code: str
    name: str
    game: str
    title: str
    players: int
    free_seats: int
    status: Literal["playing", "finished", "closed"]
    seats: list[SeatSummary] = []
    # People are seated and none of them is connected: the table waits for them (no AI
    # moves, timers stopped). Added without a new protocol version.
    paused: bool = False


class Tables(_Reply, tag="tables", frozen=True):
    tables: list[TableSummary] = []


class Joined(_Reply, tag="joined", frozen=True):
    table: str
    seat: int
    token: str  # secret: only ever sent to the connection that holds the seat


class State(_Reply, tag="state", frozen=True):
    table: str
    game: str
    version: int
    seat: int | None  # None for a spectator
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    to_act: list[int]
    seats: list[SeatSummary]
    deadline: float | None = None  # seconds left on the turn timer for the seat to act, if any
    outcome: dict[str, Any] | None = None
    ai_speed: float = 1.0  # clients scale their animations with it
    name: str = ""
    code: str = ""
    status: Literal["playing", "finished", "closed"] = "playing"
    # The view's part every client understands (engine/presentation.py ``Common``): the seat,
    # who acts, the own hand, hand counts, sides, scores by side, phase and captions.
    common: dict[str, Any] | None = None
    # The game's drawing instructions (engine/presentation.py ``Presentation`` as data): the
    # family renderer, zones and gestures, the same for every seat and every state of a game.
    presentation: dict[str, Any] | None = None
    # As ``TableSummary.paused``: the people seated are all away, so the table waits.
    paused: bool = False


class OptionSpec(msgspec.Struct, frozen=True):
    """One option of a game a player may open: clients label it from the game's catalogue
    (``<game>.option.<name>``, and ``<game>.option.<name>.<choice>`` for a choice)."""

    name: str
    kind: Literal["bool", "int", "choice"]
    default: bool | int | str | None
    choices: list[str] = []
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False


class GameOffer(msgspec.Struct, frozen=True):
    id: str
    title: str  # English; clients show ``<game>.name`` from the game's catalogue
    players: list[int]
    default_players: int
    options: list[OptionSpec] = []


class Catalogue(_Reply, tag="catalogue", frozen=True):
    """The answer to ``games``. ``open`` says whether an ``open`` may succeed now; when it
    may not, ``refusal`` is the code it would be refused with (``open_off``,
    ``too_many_tables``, ``draining``). Names no other message uses with another type
    (``tables`` is a list in ``tables``, ``reason`` a Text in ``bye``), so a client that
    decodes every message into one shape never meets one name with two types."""

    open: bool
    refusal: str = ""
    games: list[GameOffer] = []
    turn_timers: list[int] = []  # seconds; 0 is no timer
    turn_timer: int = 0  # the box's default choice
    open_tables: int = 0  # tables open now (closed ones do not count)
    max_tables: int = 0


# -- state patches (protocol 2) -----------------------------------------------------------
class Patch(_Reply, tag="patch", frozen=True):
    """What changed in a connection's state since the one it was sent last (``base``), as the
    operations of ``hostd.protocol.patch`` on the state's fields; the result is the state at
    ``version``. A client holding another version than ``base`` sends ``sync``."""

    table: str
    base: int
    version: int
    ops: list[list[Any]]


class Rejected(_Reply, tag="rejected", frozen=True):
    code: str
    message: Text


class Notice(_Reply, tag="notice", frozen=True):
    table: str | None
    text: Text


class Pong(_Reply, tag="pong", frozen=True):
    pass


# -- social: the answer to ``history`` ------------------------------------------------------------
class LogEntry(msgspec.Struct, frozen=True):
    """One line of a seat's log: what the step that made table version ``version`` did, as
    that seat's view tells it (a message key of the game's or the shell's catalogue)."""

    version: int
    text: Text


class ScoreRow(msgspec.Struct, frozen=True):
    """The scores by side (``common.teams`` numbering) once the hand ending at ``version``
    was scored, or at the end of the game."""

    version: int
    scores: list[int]


class History(_Reply, tag="history", frozen=True):
    table: str
    game: str
    seat: int | None  # whose account this is (None: the public one)
    version: int  # the table version the account goes up to
    teams: list[int] = []  # each seat's side, as in ``common``
    entries: list[LogEntry] = []
    rows: list[ScoreRow] = []
    omitted: int = 0  # the oldest entries left out so the answer fits in a frame
# -- end social ---------------------------------------------------------------------------------


class HostBye(_Reply, tag="bye", frozen=True):
    reason: Text


HostMessage = (Welcome | Tables | Joined | State | Catalogue | Rejected | Notice | Pong | HostBye
               | History | Patch)

client_decoder = msgspec.json.Decoder(ClientMessage)
host_decoder = msgspec.json.Decoder(HostMessage)
encoder = msgspec.json.Encoder()


def encode(msg: msgspec.Struct) -> bytes:
    """One message as compact UTF-8 JSON, without the newline."""
    return encoder.encode(msg)


def schema() -> dict[str, Any]:
    """The JSON Schema of both directions (``tablebox protocol schema``)."""
    (client, host), components = msgspec.json.schema_components([ClientMessage, HostMessage])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"tablebox protocol {PROTOCOL_VERSION}",
        "oneOf": [
            {"title": "client to host", **client},
            {"title": "host to client", **host},
        ],
        "$defs": components,
    }
