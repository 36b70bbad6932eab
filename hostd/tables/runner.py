"""The one trio task that owns a table: its inbox, the AI, timers and the step path.

Everything that changes a table arrives as a command in this task's inbox and is handled to
the end before the next one is read: check (the pure core), make durable (the store), then
tell (render and push frames). No locks, no races; a command that fails never leaves the
table half-changed. The AI, grace periods, turn timers, a game clock's flag and the pause
between hands run as small child tasks that only ever post commands back into the inbox,
where they are checked like anyone's (an AI move decided at an old version is simply stale
and decided again).

Abandonment (docs/host.md, "Abandoned seats and tables"): a person away for
``seat_release_after`` seconds loses the seat to the computer for good; a table whose people
are all away is paused (the core says so: no AI moves, no deals, timers and clocks stopped);
a finished table is archived after ``archive_finished_after`` and one nobody is connected to
or watching after ``archive_abandoned_after``, by the same close as the operator's. The
store does not know when a link dropped before a restart, so on restore every seated person
counts as away from that moment: a restart never releases a seat sooner than promised.

Game clocks (hostd/tables/clocks.py): the mover's thinking time is measured here, from the
moment its clock starts running; each move is stored with its ``Clock`` step (the time it
used), a ``Flag`` step is sent when the running clock reaches zero, and the deadline in
every state is the time left on the running clock (or the turn timer's, if sooner).

Never blocks on a client: frames go to each connection's bounded outbox without waiting (a
connection that cannot keep up is dropped by its session), so one slow phone never slows
its table or any other.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import trio

from hostd.logs import get_logger
from hostd.protocol import codes
from hostd.protocol.messages import Rejected, Text
from hostd.store import StorageError
from hostd.tables import clocks
from hostd.tables.core import Change, Effects, HostSteps, Reject, TableCore, hash_token, notice

if TYPE_CHECKING:
    from hostd.tables.hub import Hub

log = get_logger(__name__)

AI_SECONDS = 1.0  # an AI move takes about this long at ai_speed 1 (clients animate meanwhile)
HAND_PAUSE = 3.0  # seconds between a scored hand and the next deal at ai_speed 1
# After the database refuses a step (disk full, read-only), no AI move or deal is tried again
# for this long, doubling up to the longest: retrying at once made a full disk spin every
# table (and flood the journal) without ever storing anything.
STORAGE_RETRY = (0.25, 30.0)


# -- commands ------------------------------------------------------------------------------
@dataclass
class Request:
    """A client request from a session: ``kind`` is the message type, ``msg`` the message."""

    conn: int
    kind: str
    msg: Any


@dataclass(frozen=True)
class ResumeMsg:
    """A ``resume`` as the session posts it: the token already hashed, never kept."""

    token_hash: str
    id: int | None = None


@dataclass
class Gone:
    conn: int


@dataclass
class AiMove:
    seat: int
    version: int
    action: Any
    forced: bool


@dataclass
class Timer:
    kind: str  # "grace", "turn", "deal", "retry", "flag", "release", "archive"
    seat: int
    version: int  # for "release" and "archive": the generation of the timer that fired
    reason: str = ""  # "archive": "finished" or "abandoned"


@dataclass
class Call:
    """Run ``fn`` inside the table task (management); the caller awaits ``done``."""

    fn: Callable[[], Awaitable[Any]]
    done: trio.Event = field(default_factory=trio.Event)
    result: Any = None
    error: BaseException | None = None


@dataclass
class Stop:
    pass


Command = Request | Gone | AiMove | Timer | Call | Stop


class TableRunner:
    def __init__(self, hub: Hub, core: TableCore, db_id: int) -> None:
        self.hub = hub
        self.core = core
        self.db_id = db_id
        self._send, self._recv = trio.open_memory_channel[Command](math.inf)
        self._nursery: trio.Nursery | None = None
        self._thinking: dict[int, tuple[int, trio.CancelScope]] = {}  # seat -> (version, scope)
        self._grace: dict[int, trio.CancelScope] = {}
        self._turn: tuple[int, float, trio.CancelScope] | None = None  # (version, deadline, scope)
        self._deal: tuple[int, trio.CancelScope] | None = None
        self._storage_wait = 0.0  # the current retry wait; 0 while the database takes steps
        self._storage_until = 0.0  # (trio time) no AI move or deal is tried before this
        self._storage_failures = 0
        self._retry: trio.CancelScope | None = None
        self._clock = clocks.TurnClock()  # the running game clock's thinking time
        self._flag: trio.CancelScope | None = None  # fires when the running clock is out
        # seat -> (generation, token hash, scope): an away person's seat is released at expiry.
        self._release: dict[int, tuple[int, str, trio.CancelScope]] = {}
        self._archive: dict[str, tuple[int, trio.CancelScope]] = {}  # reason -> (gen, scope)
        self._generation = 0  # tells a timer that fired from one cancelled after it fired
        # An accepted step scheduled what it made due (``apply``) and nothing happened since:
        # the command that took it need not schedule again.
        self._scheduled = False
        self.stopped = trio.Event()
        self.log = log.bind(table=core.id, game=core.meta.game)

    @property
    def id(self) -> str:
        return self.core.id

    # -- the inbox ------------------------------------------------------------------------
    def post(self, cmd: Command) -> None:
        """Queue a command (never blocks: sessions are rate-limited, so the inbox is bounded)."""
        try:
            self._send.send_nowait(cmd)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            if isinstance(cmd, Call):
                cmd.error = Reject(codes.TABLE_CLOSED)
                cmd.done.set()

    async def call(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        cmd = Call(fn)
        self.post(cmd)
        await cmd.done.wait()
        if cmd.error is not None:
            raise cmd.error
        return cmd.result

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                task_status.started()
                for seat in self.core.seats:  # restored: nobody is connected yet
                    if seat.occupant is not None and seat.occupant.conn is None:
                        self._start_grace(seat.index)
                        self._start_release(seat.index)
                self._schedule()
                async with self._recv:
                    async for cmd in self._recv:
                        if isinstance(cmd, Stop):
                            break
                        await self._handle(cmd)
                nursery.cancel_scope.cancel()
        finally:
            self._send.close()
            self._fail_pending()
            self.stopped.set()

    def _fail_pending(self) -> None:
        while True:
            try:
                cmd = self._recv.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            if isinstance(cmd, Call):
                cmd.error = Reject(codes.TABLE_CLOSED)
                cmd.done.set()

    async def _handle(self, cmd: Command) -> None:
        self._scheduled = False
        try:
            if isinstance(cmd, Request):
                await self._request(cmd)
            elif isinstance(cmd, Gone):
                self._gone(cmd.conn)
            elif isinstance(cmd, AiMove):
                await self._ai_move(cmd)
            elif isinstance(cmd, Timer):
                await self._timer(cmd)
            elif isinstance(cmd, Call):
                try:
                    cmd.result = await cmd.fn()
                except Exception as e:
                    cmd.error = e
                finally:
                    cmd.done.set()
        except Exception:
            # A bug must not take the table (or the daemon) down: log it and carry on.
            self.log.exception("table_command_failed", command=type(cmd).__name__)
            if isinstance(cmd, Request):
                self._reject(cmd.conn, Reject(codes.INTERNAL_ERROR), _re(cmd.msg))
            self._scheduled = False
        # An intent does nothing after its step's ``apply``, which scheduled already (once
        # per move is what the table needs; twice was 3% of the loop at saturation).
        if not (self._scheduled and isinstance(cmd, Request) and cmd.kind == "intent"):
            self._schedule()

    # -- the step path ---------------------------------------------------------------------
    async def apply(self, change: Change, *, conn: int | None = None,
                    re: int | None = None) -> Effects | None:
        """Make ``change`` durable, commit it, tell everyone. None if storage refused it."""
        if change.events:
            try:
                await self.hub.store.append(self.db_id, change.events)
            except StorageError as e:
                self._storage_failed(e)
                if conn is not None:
                    self._reject(conn, Reject(codes.STORAGE_FAILED), re)
                return None
            if self._storage_wait:
                self.log.info("storage_recovered", failures=self._storage_failures)
                self._storage_wait, self._storage_failures = 0.0, 0
        effects = change.commit()
        self.hub.moves += sum(1 for k, d in change.events if k == "step" and "action" in d)
        self._schedule()
        self._scheduled = True
        self.deliver(effects)
        return effects

    def _storage_failed(self, e: StorageError) -> None:
        first = self._storage_wait == 0
        self._storage_failures += 1
        self._storage_wait = min(STORAGE_RETRY[1], max(STORAGE_RETRY[0], 2 * self._storage_wait))
        self._storage_until = trio.current_time() + self._storage_wait
        # Once per streak at error, then quietly: a full disk must not also fill the journal.
        (self.log.error if first else self.log.debug)(
            "storage_failed", error=str(e), retry_seconds=self._storage_wait)

    def _storage_held(self) -> bool:
        """True while AI moves and deals wait for the database (a retry is scheduled)."""
        left = self._storage_until - trio.current_time()
        if not self._storage_wait or left <= 0:
            return False
        if self._retry is None:
            self._retry = self._later(left, Timer("retry", -1, self.core.version))
        return True

    def deliver(self, effects: Effects) -> None:
        frames = self.core.render(effects, deadline=self._deadline_left(),
                                  ai_speed=self.hub.ai_speed)
        for conn, frame in frames:
            self.hub.push(conn, frame)
        if effects.detached:
            self.core.forget(effects.detached)
            for conn in effects.detached:
                self.hub.detached(conn, self.id)
        self.hub.tables_changed()

    def _reject(self, conn: int, r: Reject, re: int | None) -> None:
        self.hub.push_msg(conn, r.message(re))

    # -- requests from sessions -------------------------------------------------------------
    async def _request(self, cmd: Request) -> None:
        core, msg, conn = self.core, cmd.msg, cmd.conn
        re = _re(msg)
        try:
            if cmd.kind == "intent":
                change = core.intent(conn, msg.version, msg.action, msg.seat, re,
                                     host=self._owed())
                await self.apply(change, conn=conn, re=re)
            elif cmd.kind == "join":
                if self.hub.draining:
                    raise Reject(codes.DRAINING)
                token = secrets.token_urlsafe(24)
                change = core.join(conn, msg.name, msg.seat, token, re)
                if await self.apply(change, conn=conn, re=re) is not None:
                    self.hub.attached(conn, self.id, hash_token(token))
                    seat = core.seat_of(conn)
                    self.log.info("seat_joined", seat=seat, conn=conn)
                    if seat is not None:
                        self._cancel_thinking(seat)
                        self._cancel_release(seat)  # the same name came back
            elif cmd.kind == "resume":
                change, previous = core.resume(conn, msg.token_hash, re)
                if await self.apply(change, conn=conn, re=re) is not None:
                    seat = core.seat_of(conn)
                    self.hub.attached(conn, self.id, None)
                    self.log.info("seat_resumed", seat=seat, conn=conn, took_over=previous)
                    if seat is not None:
                        self._cancel(self._grace.pop(seat, None))
                        self._cancel_thinking(seat)
                        self._cancel_release(seat)
            elif cmd.kind == "sync":
                self.deliver(core.sync(conn, re))
            elif cmd.kind == "spectate":
                effects = core.spectate(conn, re)
                self.hub.attached(conn, self.id, None)
                self.deliver(effects)
            elif cmd.kind == "leave":
                seat = core.seat_of(conn)
                tokens = set(core.tokens())
                if await self.apply(core.leave(conn, re), conn=conn, re=re) is not None:
                    self.hub.forget_tokens(tokens - set(core.tokens()))
                    self.hub.detached(conn, self.id)
                    if seat is not None:
                        self.log.info("seat_left", seat=seat, conn=conn)
            elif cmd.kind == "rematch":
                change = core.rematch(conn, secrets.randbits(63), re)
                if await self.apply(change, conn=conn, re=re) is not None and change.events:
                    self.log.info("rematch_started", number=core.game_no)
            else:  # pragma: no cover - the session only posts the kinds above
                raise Reject(codes.UNKNOWN_TYPE)
        except Reject as r:
            self._reject(conn, r, re)

    def _gone(self, conn: int) -> None:
        effects, seat = self.core.disconnect(conn)
        self._schedule()  # the last person gone pauses the table: the state says so, untimed
        self.deliver(effects)
        if seat is not None:
            self.log.info("seat_disconnected", seat=seat, conn=conn)
            self._start_grace(seat)
            self._start_release(seat)

    def _start_grace(self, seat: int) -> None:
        self._cancel(self._grace.pop(seat, None))
        self._grace[seat] = self._later(self.hub.grace_seconds, Timer("grace", seat, 0))

    def _next_generation(self) -> int:
        self._generation += 1
        return self._generation

    def _start_release(self, seat: int) -> None:
        """The person of ``seat`` is away: their seat goes to the computer at expiry."""
        self._cancel_release(seat)
        after = self.hub.config.seat_release_after
        occ = self.core.seats[seat].occupant
        if after <= 0 or occ is None:
            return
        gen = self._next_generation()
        self._release[seat] = (gen, occ.token_hash,
                               self._later(after, Timer("release", seat, gen)))

    def _cancel_release(self, seat: int) -> None:
        entry = self._release.pop(seat, None)
        if entry is not None:
            self._cancel(entry[2])

    async def _release_seat(self, cmd: Timer) -> None:
        entry = self._release.get(cmd.seat)
        if entry is None or entry[0] != cmd.version:
            return  # cancelled (they came back) after it fired
        del self._release[cmd.seat]
        change = self.core.release(cmd.seat, entry[1])
        if change is None:
            return
        if await self.apply(change) is None:
            # The database refused it: the seat stays theirs a little longer; try again.
            gen = self._next_generation()
            wait = max(1.0, self._storage_wait)
            self._release[cmd.seat] = (gen, entry[1],
                                       self._later(wait, Timer("release", cmd.seat, gen)))
            return
        self.hub.forget_tokens([entry[1]])
        self.log.info("seat_released", seat=cmd.seat)

    def _schedule_archive(self) -> None:
        """Follow the archiving policy: a timer per reason that holds now, none otherwise."""
        core, config = self.core, self.hub.config
        due = {
            "finished": config.archive_finished_after if core.status == "finished" else 0.0,
            "abandoned": (config.archive_abandoned_after
                          if core.status != "closed" and not core.watchers else 0.0),
        }
        for reason, after in due.items():
            entry = self._archive.get(reason)
            if after > 0 and entry is None:
                gen = self._next_generation()
                self._archive[reason] = (gen, self._later(
                    after, Timer("archive", -1, gen, reason)))
            elif after <= 0 and entry is not None:
                self._cancel(entry[1])
                del self._archive[reason]

    async def _archive_table(self, cmd: Timer) -> None:
        entry = self._archive.get(cmd.reason)
        if entry is None or entry[0] != cmd.version or self.core.status == "closed":
            return  # no longer due (a rematch, somebody came) after it fired
        del self._archive[cmd.reason]
        tokens = set(self.core.tokens())
        if await self.apply(self.core.close(cmd.reason)) is None:
            return  # the database refused it: _schedule arms the timer again
        self.hub.forget_tokens(tokens)
        self.log.info("table_archived", reason=cmd.reason, games=self.core.game_no)
        self.stop()

    # -- management (called through ``call``) ---------------------------------------------------
    async def admin(self, change: Change) -> Effects:
        tokens = set(self.core.tokens())
        effects = await self.apply(change)
        if effects is None:
            raise StorageError("the database refused the change")
        self.hub.forget_tokens(tokens - set(self.core.tokens()))
        return effects

    # -- AI, timers ----------------------------------------------------------------------------
    def _schedule(self) -> None:
        """Start what the table needs now: AI moves, the deal after a pause, a turn timer."""
        core = self.core
        if self._nursery is None:
            return
        self._schedule_archive()
        self._schedule_clock()
        if core.status != "playing":
            for seat in list(self._thinking):
                self._cancel_thinking(seat)
            self._cancel_turn()
            if self._deal is not None:
                self._cancel(self._deal[1])
                self._deal = None
            return
        version = core.version
        held = self._storage_held()  # deals and AI moves wait while the database refuses
        paused = core.paused()  # its people are all away: nothing moves until one is back
        if paused and self._deal is not None:
            self._cancel(self._deal[1])  # the pause between hands starts again on return
            self._deal = None
        if not held and not paused and core.chance_pending() and (
                self._deal is None or self._deal[0] != version):
            if self._deal is not None:
                self._cancel(self._deal[1])
            pause = HAND_PAUSE * self.hub.ai_speed if core.game.between_hands(
                core.match.state) else 0.0
            self._deal = (version, self._later(pause, Timer("deal", -1, version)))
        ai_seats = set(core.ai_turns())
        for seat, (v, _scope) in list(self._thinking.items()):
            if v != version or (seat not in ai_seats and not self._forced(seat, v)):
                self._cancel_thinking(seat)
        for seat in ai_seats:
            if seat not in self._thinking and not held:
                self._think(seat, version, forced=False)
        humans = core.human_turns()
        if core.meta.turn_timer > 0 and humans and not paused:
            if self._turn is None or self._turn[0] != version:
                self._cancel_turn()
                deadline = trio.current_time() + core.meta.turn_timer
                scope = self._later(core.meta.turn_timer, Timer("turn", -1, version))
                self._turn = (version, deadline, scope)
        else:
            self._cancel_turn()

    def _forced(self, seat: int, version: int) -> bool:
        return self._turn is not None and self._turn[0] == version and seat in self.core.to_act()

    def _deadline_left(self) -> float | None:
        """Seconds the seat to act has: the turn timer's, the running clock's, the sooner."""
        now = trio.current_time()
        left = [self._turn[1] - now] if self._turn is not None and \
            self._turn[0] == self.core.version else []
        if self._clock.since is not None:
            on_clock = clocks.seconds_left(self._timing(), self._clock, now)
            if on_clock is not None:
                left.append(on_clock)
        return max(0.0, round(min(left), 3)) if left else None

    # -- game clocks -----------------------------------------------------------------------
    def _timing(self) -> clocks.Timing | None:
        core = self.core
        return clocks.timing(core.game, core.match.state) if core.status == "playing" else None

    def _schedule_clock(self) -> None:
        """Follow the running clock: a new turn starts at zero; the clock stops while nobody
        is at the table or the table is paused (the computers wait then too); the flag falls
        at zero."""
        core = self.core
        t = self._timing()
        key = clocks.turn_key(core.game_no, t)
        now = trio.current_time()
        running = key is not None and core.attended() and not core.paused()
        if self._clock.update(key, running, now) or (running and self._flag is None):
            self._cancel(self._flag)
            self._flag = None
            left = clocks.seconds_left(t, self._clock, now)
            if running and left is not None and not self._storage_held():
                self._flag = self._later(left, Timer("flag", -1, core.version))

    def _owed(self) -> HostSteps:
        """The host's steps an action now makes due: the mover's Clock step, with the time
        it thought (measured now, as the action is taken)."""
        used, game = self._clock.used_ms(trio.current_time()), self.core.game
        return lambda state: clocks.owed_steps(game, state, used)

    async def _flag_fell(self) -> None:
        self._flag = None
        t = self._timing()
        if t is None or clocks.turn_key(self.core.game_no, t) != self._clock.key \
                or self._clock.since is None:
            return  # the move came first: _schedule follows the new turn
        now = trio.current_time()
        left = clocks.seconds_left(t, self._clock, now)
        if left is not None and left > 0:
            self._flag = self._later(left, Timer("flag", -1, self.core.version))
            return
        elapsed = max(self._clock.used_ms(now), t.left[t.running])
        await self.apply(self.core.host_step(*clocks.flag_step(self.core.game, elapsed)))

    def _cancel_turn(self) -> None:
        if self._turn is not None:
            self._cancel(self._turn[2])
            self._turn = None

    def _cancel_thinking(self, seat: int) -> None:
        entry = self._thinking.pop(seat, None)
        if entry is not None:
            self._cancel(entry[1])

    @staticmethod
    def _cancel(scope: trio.CancelScope | None) -> None:
        if scope is not None:
            scope.cancel()

    def _later(self, delay: float, cmd: Command) -> trio.CancelScope:
        scope = trio.CancelScope()

        async def fire() -> None:
            with scope:
                await trio.sleep(delay)
                self.post(cmd)

        assert self._nursery is not None
        self._nursery.start_soon(fire)
        return scope

    def _think(self, seat: int, version: int, *, forced: bool) -> None:
        core = self.core
        scope = trio.CancelScope()
        view, legal, rng = core.ai_inputs(seat)
        level = core.seats[seat].level
        game_id = core.meta.game
        # On a game clock the computer's pause would be charged to it (a second a step loses
        # every short game on time): it moves as soon as it has decided.
        paced = not forced and self._clock.key is None
        delay = AI_SECONDS * self.hub.ai_speed if paced else 0.0

        async def think() -> None:
            with scope:
                started = trio.current_time()
                action = await self.hub.ai.decide(game_id, level, view, legal, rng)
                await trio.sleep(max(0.0, delay - (trio.current_time() - started)))
                self.post(AiMove(seat, version, action, forced))

        assert self._nursery is not None
        self._thinking[seat] = (version, scope)
        self._nursery.start_soon(think)

    async def _ai_move(self, cmd: AiMove) -> None:
        entry = self._thinking.get(cmd.seat)
        if entry is not None and entry[0] == cmd.version:
            del self._thinking[cmd.seat]
        try:
            change = self.core.ai_step(cmd.seat, cmd.version, cmd.action, forced=cmd.forced,
                                       host=self._owed())
        except Reject:
            return  # decided on a state that has moved on: _schedule decides again
        if cmd.forced:
            self.deliver(Effects(sends=[(None, notice(self.id, "notice.turn_timeout",
                                                      seat=cmd.seat))]))
        await self.apply(change)

    async def _timer(self, cmd: Timer) -> None:
        core = self.core
        if cmd.kind == "retry":
            self._retry = None  # _handle schedules again: AI moves and deals are tried again
        elif cmd.kind == "flag":
            await self._flag_fell()
        elif cmd.kind == "release":
            await self._release_seat(cmd)
        elif cmd.kind == "archive":
            await self._archive_table(cmd)
        elif cmd.kind == "grace":
            self._grace.pop(cmd.seat, None)
            effects = core.cover(cmd.seat)
            if effects.sends:
                self.log.info("ai_covering", seat=cmd.seat)
            self.deliver(effects)
        elif cmd.kind == "deal":
            if self._deal is not None and self._deal[0] == cmd.version:
                self._deal = None
            if core.version == cmd.version and core.chance_pending() and not core.paused():
                await self.apply(core.resolve_chance())
        elif cmd.kind == "turn" and self._turn is not None and self._turn[0] == cmd.version:
            for seat in core.human_turns():
                if core.version == cmd.version and seat not in self._thinking:
                    self._think(seat, cmd.version, forced=True)

    # -- stopping ----------------------------------------------------------------------------
    def stop(self) -> None:
        self.post(Stop())


def _re(msg: Any) -> int | None:
    re = getattr(msg, "id", None)
    return re if isinstance(re, int) else None


def rejected(code: str, re: int | None = None, **args: str | int) -> Rejected:
    return Rejected(re=re, code=code, message=Text(f"error.{code}", dict(args)))
