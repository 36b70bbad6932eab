"""The pure table core: seats, occupants, controllers, the version counter and the Match.

Rules this module lives by:

- It is pure: no trio, no logging, no clock, no randomness of its own. Tokens and seeds come
  in as arguments; time comes in as the seconds left on a turn timer. That keeps every
  decision testable without a loop and replayable from the store.
- Every change is two-phase. An operation checks its input and either raises ``Reject``
  (a stable code; nothing changed) or returns a ``Change``: the events to make durable and a
  ``commit`` to call once they are. Only ``commit`` mutates the table, and it returns the
  ``Effects``: what must be sent to whom. So nothing is ever shown before it is stored.
- ``apply_event`` is how the store's events rebuild a table (replay on start); live commits
  go through the same helpers, so a restored table is the table that was running.
- Each watcher (a connection id) sees ``view(state, its seat)`` and ``legal`` for its own
  seat only; spectators see ``view(state, None)``. After its first full state a watcher is
  sent patches from the state it was sent last (``render``, docs/protocol.md "Patches"), made
  from that watcher's own state and the new one only, so a patch can never say more. Tokens are stored as hashes; a token is
  only ever sent in the ``Joined`` answer to the connection that asked.

Versions: ``version`` counts the game steps of the table (each action and each chance step,
plus one per rematch), so replay reproduces it. An intent based on version ``v`` is accepted
when nothing that seat sees has changed since ``v`` (its view and legal actions), so two
seats acting in the same phase do not make each other stale.
"""

from __future__ import annotations

import functools
import hashlib
import random
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import msgspec

from engine import registry
from engine.errors import CodecError, IllegalAction
from engine.game import Game
from engine.match import ActionStep, ChanceStep, Match, Step
from engine.records import to_record
from hostd.protocol import codes, patch, wire
from hostd.protocol.messages import (
    Joined,
    Notice,
    Patch,
    Rejected,
    SeatSummary,
    State,
    TableSummary,
    Text,
    encode,
)
from hostd.protocol.wire import Memo, encode_data, to_wire
from hostd.tables import parts
from hostd.tables.parts import Part, encode_fields
from hostd.tables.parts import encode as encode_part

Event = tuple[str, dict[str, Any]]
# The host's own steps an action makes due, from the state it reached: (seat, action) each.
HostSteps = Callable[[Any], Sequence[tuple[int, Any]]]
Status = Literal["playing", "finished", "closed"]
MAX_NAME = 24
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud across a table


def hash_token(token: str) -> str:
    """What the store and the core keep of a seat token (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(raw: str) -> str:
    """A display name: control characters out, spaces collapsed, at most MAX_NAME characters."""
    text = "".join(" " if unicodedata.category(c)[0] == "C" else c for c in raw)
    return " ".join(text.split())[:MAX_NAME].strip()



@functools.cache
def _presentation(game: Game[Any]) -> bytes:
    """A game's descriptor, encoded once: it never changes while the daemon runs."""
    return encode_data(game.info.presentation)


class Reject(Exception):
    """A refused request. ``code`` is stable (``hostd.protocol.codes``); nothing changed."""

    def __init__(self, code: str, args: dict[str, str | int] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.args_ = args or {}

    def message(self, re: int | None = None) -> Rejected:
        return Rejected(re=re, code=self.code, message=Text(f"error.{self.code}", self.args_))


@dataclass
class Occupant:
    name: str
    token_hash: str
    conn: int | None = None  # the connection holding the seat now, if any
    covered: bool = False  # the grace period ran out: the AI plays for them until they return
    rematch: bool = False  # asked for a rematch


@dataclass
class Seat:
    index: int
    team: int
    level: str  # the AI that plays the seat (or covers it)
    occupant: Occupant | None = None

    @property
    def ai_plays(self) -> bool:
        return self.occupant is None or self.occupant.covered


@dataclass
class TableMeta:
    id: str
    code: str
    name: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int  # secret: host-side only
    turn_timer: float = 0.0


@dataclass
class Effects:
    """What to do after a commit: send messages, then (if ``broadcast``) every watcher's state.

    ``sends`` address a connection id, or ``None`` for every watcher. ``reply`` names the
    connection whose request caused this and its request id, so its state carries ``re``.
    ``detached`` are connections no longer watching this table.
    """

    sends: list[tuple[int | None, msgspec.Struct]] = field(default_factory=list)
    broadcast: bool = False
    reply: tuple[int, int | None] | None = None
    detached: list[int] = field(default_factory=list)
    direct: list[tuple[int, int | None]] = field(default_factory=list)  # (conn, re): own state


@dataclass(eq=False)
class _Sent:
    """The state one connection was sent last of a table, kept to diff the next one against.

    ``parts`` are the view, legal actions and common part exactly as encoded for the frame,
    split by key (``hostd.tables.parts``) and shared by every connection of the seat: nothing
    is encoded again, and a key is decoded only when a later state's differs from it.
    ``rest`` is the frame's other patched fields but the seat, as data; it is one object for
    every seat of one render, so its diff is made once per render. ``serial`` tells records
    apart within one render (connections that were sent the same state get the same patch,
    made once).
    """

    serial: int
    version: int
    parts: tuple[Part, Part, Part]
    seat: int | None
    rest: dict[str, Any]

    @property
    def raw(self) -> tuple[bytes, bytes, bytes]:
        return self.parts[0].raw, self.parts[1].raw, self.parts[2].raw


_PARTS = ("view", "legal", "common")
_encoder = msgspec.json.Encoder()
_EMPTY = encode_part([])


@dataclass
class Change:
    events: list[Event]
    commit: Callable[[], Effects]


def notice(table: str, key: str, **args: str | int) -> Notice:
    return Notice(table=table, text=Text(key, dict(args)))


def _advance(game: Game[Any], state: Any, *, pause: bool) -> tuple[Any, list[Step]]:
    """Resolve every pending chance step from the seed, unless ``pause`` and a hand just ended."""
    steps: list[Step] = []
    if pause and game.between_hands(state):
        return state, steps
    while (outcome := game.chance_outcome(state)) is not None:
        state = game.apply_chance(state, outcome)
        steps.append(ChanceStep(outcome))
    return state, steps


class TableCore:
    def __init__(self, meta: TableMeta, levels: Sequence[str] | None = None) -> None:
        self.meta = meta
        self.game: Game[Any] = registry.get(meta.game)
        options = self.game.validate(meta.players, meta.options)
        self.match = Match(self.game, meta.players, options, meta.seed)
        teams = self.match.teams()
        default = list(levels or ["normal"])
        self.seats = [Seat(i, teams[i], default[i % len(default)]) for i in range(meta.players)]
        self.status: Status = "playing"
        self.base = 0  # version of the first step of the current game
        self.game_no = 1
        self.hand_start = 0  # index in match.steps where the hand in play began
        self.records: list[dict[str, Any]] = []  # finished games before this one
        self.watchers: dict[int, int | None] = {}  # connection -> seat (None: spectator)
        # Connections already sent the game's descriptor: it never changes, so it goes in a
        # connection's first state of this table only (clients keep it).
        self._described: set[int] = set()
        self._marks: dict[int, tuple[int, bytes, bytes]] = {}  # seat -> (since, view, legal)
        # The state each connection was sent last (protocol 2 sends the next as a patch).
        # Gone on join, resume, spectate, sync and rematch: the next is a full state.
        self._sent: dict[int, _Sent] = {}
        self._serial = 0
        # seat -> (state, status, its encoded parts): see ``payload``.
        self._payloads: dict[int | None, tuple[Any, str, tuple[Part, Part, Part]]] = {}

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def create(cls, meta: TableMeta, levels: Sequence[str]) -> tuple[TableCore, list[Event]]:
        """A new table and the events that recreate it: seat levels, then the first deal."""
        core = cls(meta, levels)
        events: list[Event] = [("level", {"seat": s.index, "level": s.level}) for s in core.seats]
        state, steps = _advance(core.game, core.match.state, pause=False)
        core._commit_steps(state, steps)
        events += [("step", core.match.step_data(s)) for s in steps]
        return core, events

    @classmethod
    def restore(cls, meta: TableMeta, events: Sequence[Event]) -> TableCore:
        core = cls(meta)
        for kind, data in events:
            core.apply_event(kind, data)
        return core

    def apply_event(self, kind: str, data: dict[str, Any]) -> None:
        """Replay one stored event (IllegalAction/CodecError if the log does not fit the rules)."""
        if kind == "step":
            m = self.match
            if "chance" in data:
                m.apply_chance(self.game.chances.decode(data["chance"]))
            else:
                m.act(int(data["seat"]), m.decode_action(data["action"]))
            self._after_steps()
        elif kind == "seat":
            seat = self.seats[int(data["seat"])]
            if data.get("name") is None:
                seat.occupant = None
            else:
                seat.occupant = Occupant(str(data["name"]), str(data["token"]))
        elif kind == "level":
            self.seats[int(data["seat"])].level = str(data["level"])
        elif kind == "status":
            self.status = data["status"]
        elif kind == "rematch":
            self._start_rematch(self._new_match(int(data["seed"])))
        else:
            raise CodecError(f"unknown event kind {kind!r}")

    # -- reading ----------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def version(self) -> int:
        return self.base + len(self.match.steps)

    def to_act(self) -> tuple[int, ...]:
        return self.match.to_act() if self.status == "playing" else ()

    def chance_pending(self) -> bool:
        return self.status == "playing" and self.match.chance_pending()

    def attended(self) -> bool:
        """Somebody is at the table: a person seated (even away) or a spectator watching."""
        return bool(self.watchers) or any(s.occupant is not None for s in self.seats)

    def paused(self) -> bool:
        """People are seated and none of them is connected: the table waits for them.

        Computers do not play a game on for people who have all gone (their seats are
        released later, or they come back); a table of computers only is not paused.
        """
        people = [s.occupant for s in self.seats if s.occupant is not None]
        return self.status == "playing" and bool(people) and all(
            o.conn is None for o in people)

    def ai_turns(self) -> list[int]:
        """Seats the AI must move now (AI seats and covered people).

        An unattended table waits: computer players do not play on alone for nobody, nor
        for people who are all away (``paused``).
        """
        if not self.attended() or self.paused():
            return []
        return [s for s in self.to_act() if self.seats[s].ai_plays]

    def human_turns(self) -> list[int]:
        return [s for s in self.to_act() if not self.seats[s].ai_plays]

    def seat_of(self, conn: int) -> int | None:
        return self.watchers.get(conn)

    def find_token(self, token_hash: str) -> int | None:
        for s in self.seats:
            if s.occupant is not None and s.occupant.token_hash == token_hash:
                return s.index
        return None

    def tokens(self) -> list[str]:
        return [s.occupant.token_hash for s in self.seats if s.occupant is not None]

    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s.occupant is None)

    def ai_inputs(self, seat: int) -> tuple[Any, tuple[Any, ...], random.Random]:
        """What the computer player of ``seat`` gets: its view, its legal actions, a generator.

        The generator is derived from the table's seed, the version and the seat, so a
        restored table's AI makes the moves it would have made.
        """
        rng = random.Random(f"{self.meta.seed}:ai:{self.version}:{seat}")
        return self.match.view(seat), self.match.legal(seat), rng

    def seat_summaries(self) -> list[SeatSummary]:
        out = []
        for s in self.seats:
            o = s.occupant
            out.append(SeatSummary(
                seat=s.index,
                name=o.name if o else "",
                controller="human" if o else "ai",
                level=s.level,
                connected=True if o is None else o.conn is not None,
                covered=bool(o and o.covered),
                team=s.team,
            ))
        return out

    def summary(self, *, seats: bool = True) -> TableSummary:
        return TableSummary(
            id=self.id, code=self.meta.code, name=self.meta.name, game=self.meta.game,
            title=self.game.info.title, players=self.meta.players,
            free_seats=self.free_seats() if self.status != "closed" else 0,
            status=self.status, seats=self.seat_summaries() if seats else [],
            paused=self.paused())

    def seats_meta(self) -> list[dict[str, str]]:
        return [{"name": s.occupant.name if s.occupant else "",
                 "controller": "human" if s.occupant else f"ai:{s.level}"} for s in self.seats]

    def record(self, *, game: int | None = None, secret: bool = False) -> dict[str, Any]:
        """The record of game ``game`` (1-based; default the current one).

        A finished game's record is complete. An unfinished game's record leaves the host
        without the seed and without the hand in play: a chance step's outcome (a shuffled
        deck) holds cards not dealt yet, so only completed hands are included. ``secret``
        (host-internal use only) gives everything.
        """
        n = self.game_no if game is None else game
        if n < 1 or n > self.game_no:
            raise Reject(codes.NO_SUCH_GAME, {"games": self.game_no})
        if n < self.game_no:
            return self.records[n - 1]
        rec = to_record(self.match, self.seats_meta(), include_seed=True)
        if self.match.outcome() is None and not secret:
            del rec["seed"]
            rec["steps"] = rec["steps"][: self.hand_start]
            rec["in_progress"] = True
        return rec

    # -- rendering ------------------------------------------------------------------------------
    def payload(self, seat: int | None, memo: Memo | None = None) -> tuple[Part, Part, Part]:
        """``seat``'s view, its legal actions and the view's common part now, encoded (and its
        staleness mark). ``memo``: shared by the seats rendered for one state.

        The parts are kept per seat for the state they were made of (states are immutable), so
        a seat's several connections, a join, a sync and a notice-only render at the same state
        cost one build."""
        m = self.match
        key = (m.state, self.status)
        hit = self._payloads.get(seat)
        if hit is not None and hit[0] is key[0] and hit[1] == key[1]:
            parts = hit[2]
        else:
            before = hit[2] if hit is not None else (None, None, None)
            seen = m.view(seat)
            view = encode_fields(seen, before[0], memo)
            legal = (encode_part(to_wire(m.legal(seat))) if seat is not None
                     and self.status == "playing" else _EMPTY)
            # Built from the view alone (Game.common), so it can never say more than the view.
            common = encode_fields(m.game.common(seen), before[2])
            parts = (view, legal, common)
            self._payloads[seat] = (key[0], key[1], parts)
        if seat is not None:
            view_raw, legal_raw = parts[0].raw, parts[1].raw
            mark = self._marks.get(seat)
            if mark is None or mark[1] != view_raw or mark[2] != legal_raw:
                self._marks[seat] = (self.version, view_raw, legal_raw)
        return parts

    def state(self, seat: int | None, *, deadline: float | None = None, re: int | None = None,
              seats: list[SeatSummary] | None = None, ai_speed: float = 1.0,
              payload: tuple[Part, Part, Part] | None = None,
              describe: bool = True) -> State:
        """``seat``'s state message; its view, legal actions and common part are embedded
        pre-encoded, and the game's descriptor when ``describe``."""
        view, legal, common = self.payload(seat) if payload is None else payload
        outcome = self.match.outcome()
        return State(
            re=re, table=self.id, game=self.meta.game, version=self.version, seat=seat,
            view=cast(Any, msgspec.Raw(view.raw)), legal=cast(Any, msgspec.Raw(legal.raw)),
            common=cast(Any, msgspec.Raw(common.raw)), to_act=list(self.to_act()),
            presentation=cast(Any, msgspec.Raw(_presentation(self.game))) if describe else None,
            seats=self.seat_summaries() if seats is None else seats, deadline=deadline,
            outcome=wire.to_data(outcome) if outcome is not None else None, ai_speed=ai_speed,
            name=self.meta.name, code=self.meta.code, status=self.status,
            paused=self.paused())

    def render(self, effects: Effects, *, deadline: float | None = None,
               ai_speed: float = 1.0) -> list[tuple[int, bytes]]:
        """Every frame ``effects`` asks for, in order: (connection, encoded message).

        A connection's first state of this table (and the next after a join, resume, sync or
        rematch) is a full ``state``; after that it gets a ``patch`` from the state it was
        sent last, or the full state when the patch would not be smaller, or nothing at all
        when nothing it sees changed (unless it is owed an answer).
        """
        out: list[tuple[int, bytes]] = []
        targets = list(self.watchers)
        for conn, msg in effects.sends:
            frame = encode(msg)
            if conn is None:
                out += [(c, frame) for c in targets]
            else:
                out.append((conn, frame))
        for conn, re in effects.direct:
            if conn in self.watchers and not effects.broadcast:
                seat = self.watchers[conn]
                seats = self.seat_summaries()
                payload = self.payload(seat)
                self._sent[conn] = self._record(seat, payload, self._rest(seats, deadline,
                                                                          ai_speed))
                out.append((conn, encode(self.state(
                    seat, deadline=deadline, re=re, seats=seats, ai_speed=ai_speed,
                    payload=payload, describe=self._first_state(conn)))))
        if effects.broadcast and self.watchers:
            seats = self.seat_summaries()
            rest = self._rest(seats, deadline, ai_speed)
            records: dict[int | None, _Sent] = {}
            frames: dict[tuple[int | None, int, bool], bytes | None] = {}
            rest_ops: dict[int, tuple[dict[str, Any], list[patch.Op] | None]] = {}
            key_ops: parts.OpsMemo = {}
            memo: Memo = {}
            reply_conn, reply_re = effects.reply if effects.reply else (None, None)
            for conn, seat in self.watchers.items():
                new = records.get(seat)
                if new is None:
                    new = records[seat] = self._record(seat, self.payload(seat, memo), rest)
                describe = self._first_state(conn)
                old = self._sent.get(conn)
                re = reply_re if conn == reply_conn else None
                key = (seat, old.serial if old is not None else -1, describe)
                if re is not None:
                    sent: bytes | None = self._frame(
                        old, new, re=re, describe=describe, seats=seats, deadline=deadline,
                        ai_speed=ai_speed, rest_ops=rest_ops, key_ops=key_ops)
                elif key in frames:
                    sent = frames[key]
                else:
                    sent = frames[key] = self._frame(
                        old, new, re=None, describe=describe, seats=seats, deadline=deadline,
                        ai_speed=ai_speed, rest_ops=rest_ops, key_ops=key_ops)
                if sent is None:
                    continue  # nothing it sees changed: it keeps the state (and version) it has
                self._sent[conn] = new
                out.append((conn, sent))
        return out

    def _rest(self, seats: list[SeatSummary], deadline: float | None,
              ai_speed: float) -> dict[str, Any]:
        """The patched fields of a state but its parts and seat: the same for every seat."""
        outcome = self.match.outcome()
        return {
            "game": self.meta.game, "to_act": list(self.to_act()),
            "seats": msgspec.to_builtins(seats), "deadline": deadline,
            "outcome": wire.to_data(outcome) if outcome is not None else None,
            "ai_speed": ai_speed, "name": self.meta.name, "code": self.meta.code,
            "status": self.status, "paused": self.paused(),
        }

    def _record(self, seat: int | None, payload: tuple[Part, Part, Part],
                rest: dict[str, Any]) -> _Sent:
        """What a connection of ``seat`` is sent now, as the next patch's base."""
        self._serial += 1
        return _Sent(self._serial, self.version, payload, seat, rest)

    def _rest_ops(self, old: _Sent, new: _Sent,
                  memo: dict[int, tuple[dict[str, Any], list[patch.Op] | None]]
                  ) -> list[patch.Op] | None:
        """The checked patch of the fields besides the parts (None: the check failed); once
        per pair of ``rest`` objects in a render. The seat is the same on both sides (a
        connection that changes seat is sent a full state), so it adds no operation."""
        hit = memo.get(id(old.rest))
        if hit is not None and hit[0] is old.rest:
            return hit[1]
        ops: list[patch.Op] | None = patch.diff(old.rest, new.rest, loose=True)
        # A bool for an int somewhere (Python's == takes true for 1): say it whole.
        if ops and _encoder.encode(patch.apply(old.rest, ops)) != _encoder.encode(new.rest):
            ops = None
        memo[id(old.rest)] = (old.rest, ops)
        return ops

    def _frame(self, old: _Sent | None, new: _Sent, *, re: int | None,
               describe: bool, seats: list[SeatSummary], deadline: float | None,
               ai_speed: float,
               rest_ops: dict[int, tuple[dict[str, Any], list[patch.Op] | None]],
               key_ops: parts.OpsMemo) -> bytes | None:
        """The frame taking a connection from ``old`` to ``new``: a patch when one is smaller
        than the full state, the full state otherwise, None when there is nothing to say."""

        def full() -> bytes:
            return encode(self.state(new.seat, deadline=deadline, re=re, seats=seats,
                                     ai_speed=ai_speed, payload=new.parts, describe=describe))

        if old is None or describe or old.version > new.version or old.seat != new.seat:
            return full()
        ops = self._rest_ops(old, new, rest_ops)
        if ops is None:
            return full()
        ops = list(ops)
        for i, name in enumerate(_PARTS):
            part = parts.ops(name, old.parts[i], new.parts[i], key_ops)
            if part is None:
                return full()
            ops += part
        if not ops and re is None:
            return None
        frame = encode(Patch(re=re, table=self.id, base=old.version, version=new.version,
                             ops=ops))
        # The full state is at least its three encoded parts: most patches are decided
        # without encoding it.
        if len(frame) < sum(len(p.raw) for p in new.parts):
            return frame
        whole = full()
        return frame if len(frame) < len(whole) else whole

    def sync(self, conn: int, re: int | None = None) -> Effects:
        """A full state for ``conn``, which is at the table (a client whose patches did not
        follow the version it holds)."""
        if conn not in self.watchers:
            raise Reject(codes.NOT_SEATED)
        self._sent.pop(conn, None)
        return Effects(direct=[(conn, re)])

    def _first_state(self, conn: int) -> bool:
        """Whether ``conn`` is about to get its first state of this table (then with the
        descriptor); forgets connections that have gone, so the set stays small."""
        if conn in self._described:
            return False
        if len(self._described) > 2 * len(self.watchers) + 16:
            self._described &= set(self.watchers)
        self._described.add(conn)
        return True

    # -- people -------------------------------------------------------------------------------
    def _open_for_people(self) -> None:
        if self.status == "closed":
            raise Reject(codes.TABLE_CLOSED)

    def join(self, conn: int, name: str, seat: int | None, token: str,
             re: int | None = None) -> Change:
        """Take an AI seat (``seat`` or the first free one) for a person named ``name``."""
        self._open_for_people()
        clean = clean_name(name)
        if not clean:
            raise Reject(codes.BAD_NAME, {"max": MAX_NAME})
        if self.watchers.get(conn) is not None:
            raise Reject(codes.ALREADY_SEATED)
        # Names are unique at a table. The same name as a person who is away is that person
        # back (a phone that died, a browser that lost its token): they get their seat again
        # rather than a second one beside their covered ghost. As a connected person's, it is
        # someone else, who must choose another name.
        same = next((s for s in self.seats if s.occupant is not None
                     and s.occupant.name.casefold() == clean.casefold()), None)
        if same is not None:
            assert same.occupant is not None
            if same.occupant.conn is not None or (seat is not None and seat != same.index):
                raise Reject(codes.NAME_TAKEN, {"name": same.occupant.name})
            seat = same.index
        elif seat is not None:
            if not 0 <= seat < len(self.seats):
                raise Reject(codes.NO_SUCH_SEAT, {"seats": len(self.seats)})
            if self.seats[seat].occupant is not None:
                raise Reject(codes.SEAT_TAKEN, {"seat": seat})
        if seat is not None:
            chosen = seat
        else:
            free = [s.index for s in self.seats if s.occupant is None]
            if not free:
                raise Reject(codes.TABLE_FULL)
            chosen = free[0]
        token_hash = hash_token(token)
        event: Event = ("seat", {"seat": chosen, "name": clean, "token": token_hash})

        def commit() -> Effects:
            self.apply_event(*event)
            occ = self.seats[chosen].occupant
            assert occ is not None
            occ.conn = conn
            self.watchers[conn] = chosen
            self._sent.pop(conn, None)  # a seat's first state is a full one
            return Effects(
                sends=[(conn, Joined(re=re, table=self.id, seat=chosen, token=token)),
                       (None, notice(self.id, "notice.joined", seat=chosen, name=clean))],
                broadcast=True)

        return Change([event], commit)

    def resume(self, conn: int, token_hash: str, re: int | None = None) -> tuple[Change, int | None]:
        """Come back to the seat of ``token_hash``; also returns the connection it takes over."""
        self._open_for_people()
        seat = self.find_token(token_hash)
        if seat is None:
            raise Reject(codes.BAD_TOKEN)
        held = self.watchers.get(conn)
        if held is not None and held != seat:
            raise Reject(codes.ALREADY_SEATED)
        occ = self.seats[seat].occupant
        assert occ is not None
        previous = occ.conn if occ.conn != conn else None

        def commit() -> Effects:
            effects = Effects(broadcast=True)
            if previous is not None:
                self.watchers.pop(previous, None)
                effects.sends.append((previous, notice(self.id, "notice.taken_over", seat=seat)))
                effects.detached.append(previous)
            was_covered = occ.covered
            occ.conn, occ.covered = conn, False
            self.watchers[conn] = seat
            self._sent.pop(conn, None)
            effects.sends.append((conn, Joined(re=re, table=self.id, seat=seat,
                                               token="")))
            effects.sends.append((None, notice(
                self.id, "notice.ai_returned" if was_covered else "notice.reconnected",
                seat=seat, name=occ.name)))
            return effects

        return Change([], commit), previous

    def spectate(self, conn: int, re: int | None = None) -> Effects:
        if self.status == "closed":
            raise Reject(codes.TABLE_CLOSED)
        if self.watchers.get(conn) is not None:
            raise Reject(codes.ALREADY_SEATED)
        self.watchers[conn] = None
        self._sent.pop(conn, None)
        return Effects(direct=[(conn, re)])

    def leave(self, conn: int, re: int | None = None) -> Change:
        """The connection gives up its seat (the AI keeps it) or stops watching."""
        if conn not in self.watchers:
            raise Reject(codes.NOT_SEATED)
        seat = self.watchers[conn]
        if seat is None:
            def detach() -> Effects:
                self.watchers.pop(conn, None)
                return Effects(sends=[(conn, Notice(re=re, table=self.id,
                                                    text=Text("notice.left", {})))],
                               detached=[conn])
            return Change([], detach)
        return self._vacate(seat, "notice.left", re)

    def kick(self, seat: int) -> Change:
        self._check_seat(seat)
        if self.seats[seat].occupant is None:
            raise Reject(codes.NOT_SEATED, {"seat": seat})
        return self._vacate(seat, "notice.kicked")

    def set_level(self, seat: int, level: str) -> Change:
        """Make ``seat`` an AI of ``level``: any person there is removed (told ``kicked``)."""
        self._check_seat(seat)
        events: list[Event] = []
        vacate = self._vacate(seat, "notice.kicked") if self.seats[seat].occupant else None
        if vacate:
            events += vacate.events
        events.append(("level", {"seat": seat, "level": level}))

        def commit() -> Effects:
            effects = vacate.commit() if vacate else Effects(broadcast=True)
            self.apply_event(*events[-1])
            effects.broadcast = True
            return effects

        return Change(events, commit)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise Reject(codes.NO_SUCH_SEAT, {"seats": len(self.seats)})

    def _vacate(self, seat: int, key: str, re: int | None = None) -> Change:
        occ = self.seats[seat].occupant
        assert occ is not None
        event: Event = ("seat", {"seat": seat, "name": None})

        def commit() -> Effects:
            conn = occ.conn
            self.apply_event(*event)
            effects = Effects(broadcast=True)
            if conn is not None:
                # The person leaving (or kicked) is told, with ``re``; then stops watching.
                self.watchers.pop(conn, None)
                effects.detached.append(conn)
                effects.sends.append((conn, Notice(re=re, table=self.id, text=Text(
                    key, {"seat": seat, "name": occ.name}))))
            effects.sends.append((None, notice(self.id, key, seat=seat, name=occ.name)))
            return effects

        return Change([event], commit)

    def disconnect(self, conn: int) -> tuple[Effects, int | None]:
        """A connection went away: forget it; a person's seat now waits for them."""
        seat = self.watchers.pop(conn, None)
        self._sent.pop(conn, None)
        if seat is None:
            return Effects(), None
        occ = self.seats[seat].occupant
        if occ is None or occ.conn != conn:
            return Effects(), None
        occ.conn = None
        return Effects(sends=[(None, notice(self.id, "notice.disconnected", seat=seat,
                                            name=occ.name))], broadcast=True), seat

    def release(self, seat: int, token_hash: str) -> Change | None:
        """The person of ``token_hash`` was away too long: the seat returns to the computer
        for good (free to take; the token stops working, the name is free). None when that
        person is no longer there, or is connected again."""
        occ = self.seats[seat].occupant
        if occ is None or occ.token_hash != token_hash or occ.conn is not None:
            return None
        event: Event = ("seat", {"seat": seat, "name": None})

        def commit() -> Effects:
            self.apply_event(*event)
            return Effects(sends=[(None, notice(self.id, "notice.seat_released", seat=seat,
                                                name=occ.name))], broadcast=True)

        return Change([event], commit)

    def cover(self, seat: int) -> Effects:
        """The grace period ran out: the AI plays for this person until they come back."""
        occ = self.seats[seat].occupant
        if occ is None or occ.conn is not None or occ.covered:
            return Effects()
        occ.covered = True
        return Effects(sends=[(None, notice(self.id, "notice.ai_covering", seat=seat,
                                            name=occ.name))], broadcast=True)

    # -- play -------------------------------------------------------------------------------
    def intent(self, conn: int, version: int, action: Any, seat: int | None = None,
               re: int | None = None, host: HostSteps | None = None) -> Change:
        """A person's action, checked in order: table, seat, version, then the rules.
        ``host``: the host's own steps the action makes due (a clock's), stored with it."""
        if self.status == "closed":
            raise Reject(codes.TABLE_CLOSED)
        held = self.watchers.get(conn)
        if held is None:
            raise Reject(codes.NOT_SEATED)
        if seat is not None and seat != held:
            raise Reject(codes.WRONG_SEAT, {"seat": held})
        if self.status == "finished":
            raise Reject(codes.GAME_OVER)
        mark = self._marks.get(held)
        lowest = mark[0] if mark is not None else self.version
        if not lowest <= version <= self.version:
            raise Reject(codes.STALE_VERSION, {"version": self.version})
        try:
            decoded = self.match.decode_action(action)
        except IllegalAction as e:
            raise Reject(e.code) from None
        return self._step(held, decoded, reply=(conn, re), host=host)

    def ai_step(self, seat: int, version: int, action: Any, *, forced: bool = False,
                host: HostSteps | None = None) -> Change:
        """A computer player's move for ``seat`` decided at ``version`` (stale: refused)."""
        if self.status != "playing":
            raise Reject(codes.GAME_OVER)
        if version != self.version:
            raise Reject(codes.STALE_VERSION)
        if not forced and not self.seats[seat].ai_plays:
            raise Reject(codes.WRONG_SEAT)
        return self._step(seat, action, reply=None, host=host)

    def host_step(self, seat: int, action: Any) -> Change:
        """A step only the host sends, as the game's own seat for it (a fallen flag)."""
        if self.status != "playing":
            raise Reject(codes.GAME_OVER)
        return self._step(seat, action, reply=None)

    def _step(self, seat: int, action: Any, *, reply: tuple[int, int | None] | None,
              host: HostSteps | None = None) -> Change:
        try:
            state = self.game.apply(self.match.state, seat, action)
            steps: list[Step] = [ActionStep(seat, action)]
            for h_seat, h_action in host(state) if host is not None else ():
                state = self.game.apply(state, h_seat, h_action)
                steps.append(ActionStep(h_seat, h_action))
        except IllegalAction as e:
            raise Reject(e.code) from None
        state, chance = _advance(self.game, state, pause=True)
        steps += chance
        events: list[Event] = [("step", self.match.step_data(s)) for s in steps]
        finished = self.game.outcome(state) is not None
        if finished:
            events.append(("status", {"status": "finished"}))

        def commit() -> Effects:
            self._commit_steps(state, steps)
            if finished:
                self.status = "finished"
            return Effects(broadcast=True, reply=reply)

        return Change(events, commit)

    def resolve_chance(self) -> Change:
        """After the pause between hands: deal the next hand."""
        state, steps = _advance(self.game, self.match.state, pause=False)
        events: list[Event] = [("step", self.match.step_data(s)) for s in steps]

        def commit() -> Effects:
            self._commit_steps(state, steps)
            return Effects(broadcast=bool(steps))

        return Change(events, commit)

    def _commit_steps(self, state: Any, steps: Sequence[Step]) -> None:
        self.match.state = state
        self.match.steps.extend(steps)
        self._after_steps()

    def _after_steps(self) -> None:
        if self.game.between_hands(self.match.state):
            self.hand_start = len(self.match.steps)

    # -- rematch and closing ---------------------------------------------------------------
    def rematch(self, conn: int, seed: int, re: int | None = None) -> Change:
        """A seated person asks for a rematch; it starts when every connected person asked."""
        if self.status == "closed":
            raise Reject(codes.TABLE_CLOSED)
        seat = self.watchers.get(conn)
        if seat is None:
            raise Reject(codes.NOT_SEATED)
        if self.status != "finished":
            raise Reject(codes.NOT_FINISHED)
        occ = self.seats[seat].occupant
        assert occ is not None
        waiting = [s.index for s in self.seats if s.occupant is not None and s.index != seat
                   and s.occupant.conn is not None and not s.occupant.rematch]
        if waiting:
            def ask() -> Effects:
                occ.rematch = True
                text = Text("notice.rematch_asked", {"seat": seat, "name": occ.name})
                sends: list[tuple[int | None, msgspec.Struct]] = [
                    (c, Notice(re=re if c == conn else None, table=self.id, text=text))
                    for c in self.watchers]
                return Effects(sends=sends)
            return Change([], ask)
        match = self._new_match(seed)
        state, steps = _advance(self.game, match.state, pause=False)
        events: list[Event] = [("rematch", {"seed": seed}), ("status", {"status": "playing"})]
        events += [("step", match.step_data(s)) for s in steps]

        def start() -> Effects:
            self._start_rematch(match)
            self.status = "playing"
            self._commit_steps(state, steps)
            return Effects(sends=[(None, notice(self.id, "notice.rematch", game=self.game_no))],
                           broadcast=True, reply=(conn, re))

        return Change(events, start)

    def _new_match(self, seed: int) -> Match:
        return Match(self.game, self.meta.players, self.match.options, seed)

    def _start_rematch(self, match: Match) -> None:
        self.records.append(to_record(self.match, self.seats_meta()))
        self.base = self.version + 1
        self.match = match
        self.meta.seed = match.seed
        self.game_no += 1
        self.hand_start = 0
        self._marks.clear()
        self._sent.clear()  # a new game: everyone's next state is a full one
        for s in self.seats:
            if s.occupant is not None:
                s.occupant.rematch = False

    def close(self, reason: str = "") -> Change:
        """Close the table (its events stay in the store). ``reason``: why the box closed it
        by itself ("finished", "abandoned"); empty when the operator did."""
        if self.status == "closed":
            raise Reject(codes.TABLE_CLOSED)
        event: Event = ("status", {"status": "closed"})
        args = {"reason": reason} if reason else {}

        def commit() -> Effects:
            self.status = "closed"
            conns = list(self.watchers)
            effects = Effects(sends=[(None, notice(self.id, "notice.table_closed", **args))],
                              broadcast=True, detached=conns)
            return effects

        return Change([event], commit)

    def forget(self, conns: Sequence[int]) -> None:
        """Drop watchers after their final frames were rendered (see ``Effects.detached``)."""
        for c in conns:
            self.watchers.pop(c, None)
            self._sent.pop(c, None)
