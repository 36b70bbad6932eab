"""Replay that never loses a table: a stored log that no longer fits the rules makes a
*damaged* table, kept whole and visible, instead of an error that makes the table vanish.

A log stops replaying when the rules changed under it (an upgrade made a stored step
illegal), when a game was removed from the install, or when a row was damaged on disk. The
other tables must start as usual, and this one must stay findable: listed (as damaged, with
where replay stopped and the stable code why), refused with ``table_damaged`` to anyone who
tries to play at it, and exportable with every stored step so that someone can find out what
happened. Its rows are never changed or deleted here (this module does no I/O at all), so a
later version that replays the log again brings the table back as it was.

Rules this module lives by:

- Pure, like ``hostd.tables.core``: no trio, no logging, no clock.
- What leaves it for lists and logs (``DamagedTable.summary``, ``Damage``) is the table's
  public description and the position and code of the failure: never the seed, a hand, a
  deck or a token (tokens are kept as hashes, only so that a returning player is told why).
- ``DamagedTable.record`` is for the operator's ``tablebox export``, and holds every stored
  step of the game where replay stopped, the hand in play included: a game that cannot be
  continued has no future to hide, and the failing step is usually in that hand. The seed is
  left out, as in every export of an unfinished game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.errors import EngineError, IllegalAction, OptionError
from engine.records import FORMAT, VERSION
from hostd.protocol import codes
from hostd.tables.core import Event, Reject, TableCore, TableMeta

BAD_EVENT = "bad_event"  # a stored event that does not decode or does not fit the table
UNKNOWN_GAME = "unknown_game"  # the table's game is not installed (or does not import)
BAD_OPTION = "bad_option"  # the stored options are no longer valid for the game

# What a stored log can raise while it is replayed: the engine's own refusals, and what
# malformed data does to plain dict and list access. Anything else is a bug, not damage.
REPLAY_ERRORS = (EngineError, ImportError, KeyError, ValueError, TypeError, IndexError,
                 AttributeError)


@dataclass(frozen=True)
class Damage:
    """Where replay stopped and why; safe to list, log and send to the operator."""

    code: str  # a stable code: the engine's (illegal_action, ...) or one of those above
    game: int  # the game of the table (1-based, rematches count) replay stopped in
    step: int  # index into that game's steps of the failing one (steps replayed so far when
    #            the failing event is not a step)
    event: int  # index into the table's stored events

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "game": self.game, "step": self.step, "event": self.event}


@dataclass
class DamagedTable:
    """A table kept in memory as it is stored, not playable. ``meta.seed`` stays host-side."""

    meta: TableMeta
    events: list[Event]
    damage: Damage
    records: list[dict[str, Any]] = field(default_factory=list)  # games replayed in full
    seats: list[dict[str, str]] = field(default_factory=list)  # as far as replay got
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.meta.id

    def title(self) -> str:
        try:
            return registry.get(self.meta.game).info.title
        except REPLAY_ERRORS:
            return self.meta.game

    def tokens(self) -> list[str]:
        """Hashes of the seat tokens the log holds now, so that a player coming back with
        one hears ``table_damaged`` rather than ``bad_token`` (which makes clients forget)."""
        held: dict[Any, str] = {}
        for kind, data in self.events:
            if kind == "seat" and isinstance(data, dict) and "seat" in data:
                if isinstance(data.get("token"), str) and data.get("name") is not None:
                    held[data["seat"]] = data["token"]
                else:
                    held.pop(data["seat"], None)
        return list(held.values())

    def summary(self) -> dict[str, Any]:
        """The management listing's entry: the shape of a table summary, status "damaged"."""
        return {"id": self.id, "code": self.meta.code, "name": self.meta.name,
                "game": self.meta.game, "title": self.title(), "players": self.meta.players,
                "free_seats": 0, "status": "damaged", "seats": [],
                "damage": self.damage.as_dict()}

    def games(self) -> int:
        return 1 + sum(1 for kind, _ in self.events if kind == "rematch")

    def record(self, *, game: int | None = None) -> dict[str, Any]:
        """Game ``game``'s record (default: the one where replay stopped).

        Games before it replayed in full and are given as any finished game's record. That
        game and any after it are given raw: every stored step in order, ``outcome`` null,
        no seed, and ``damaged`` saying where replay stopped (docs/records.md).
        """
        n = self.damage.game if game is None else game
        if n < 1 or n > self.games():
            raise Reject(codes.NO_SUCH_GAME, {"games": self.games()})
        if n < self.damage.game:
            return self.records[n - 1]
        try:
            rules: str | None = registry.get(self.meta.game).info.rules_version
        except REPLAY_ERRORS:
            rules = None  # the game is not installed: a reader cannot check the version
        return {
            "format": FORMAT, "version": VERSION, "game": self.meta.game,
            "rules_version": rules, "players": self.meta.players,
            "options": dict(self.options), "seats": [dict(s) for s in self.seats],
            "steps": _steps_of_game(self.events, n), "outcome": None,
            "damaged": self.damage.as_dict(),
        }


def _steps_of_game(events: Sequence[Event], game: int) -> list[Any]:
    """The stored step data of game ``game`` (a ``rematch`` event starts the next one)."""
    n, out = 1, []
    for kind, data in events:
        if kind == "rematch":
            n += 1
        elif kind == "step" and n == game:
            out.append(data)
    return out


def _code(e: BaseException) -> str:
    if isinstance(e, IllegalAction):
        return e.code
    if isinstance(e, OptionError):
        return UNKNOWN_GAME if e.option == "game" else BAD_OPTION
    if isinstance(e, ImportError):
        return UNKNOWN_GAME
    return BAD_EVENT


def _position(events: Sequence[Event], index: int) -> tuple[int, int]:
    """(game, step) of event ``index``: the game it belongs to, the steps of it before it."""
    game, step = 1, 0
    for kind, _ in events[:index]:
        if kind == "rematch":
            game, step = game + 1, 0
        elif kind == "step":
            step += 1
    return game, step


def replay(meta: TableMeta, events: Sequence[Event]) -> TableCore | DamagedTable:
    """The table the log rebuilds, or, at the first event that does not fit, the damaged
    table: the log kept whole, with what replay rebuilt before it (names, finished games)."""
    log = list(events)
    try:
        core = TableCore(meta)
    except REPLAY_ERRORS as e:
        return DamagedTable(meta, log, Damage(_code(e), 1, 0, 0), options=dict(meta.options))
    for index, (kind, data) in enumerate(log):
        try:
            core.apply_event(kind, data)
        except REPLAY_ERRORS as e:
            game, step = _position(log, index)
            return DamagedTable(meta, log, Damage(_code(e), game, step, index),
                                records=list(core.records), seats=core.seats_meta(),
                                options=dict(core.match.options))
    return core
