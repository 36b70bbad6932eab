"""Game clocks run by the host, for any game whose engine exposes them (``ClockedGame``).

An engine with clocks counts time but never reads it (engine/ has no clock): it says, for a
state, how many milliseconds each seat had left at its last move, whose clock runs now and
whose time for the move just made is owed (``clock(state)``), and it builds the host-only
steps that tell it: ``clock_step(used_ms)`` after a move, ``flag_step(elapsed_ms)`` when the
running clock reaches zero, both sent as seat ``clock_seat``. Nothing here knows a game id.

This module owns the measuring (``TurnClock``: the running seat's thinking time, from the
moment that seat could act, paused while nobody is at the table or its people are all away),
what a move owes (``owed_steps``), and the time the host shows (``seconds_left``). It is
pure: the caller passes the time in (the table's trio task, hostd/tables/runner.py, which
also holds the deadline at which it sends the flag). It must never read a clock, sleep, or log.

Restart: the record holds every ``Clock`` step, so a restored table's clocks stand where
the last move left them; the time the mover had thought before the daemon stopped, and the
time it was down, are not charged (the mover's clock starts again from the record, as an
arbiter stops the clocks during an interruption, FIDE 6.12).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Protocol, runtime_checkable


class Timing(Protocol):
    """What ``ClockedGame.clock`` answers (a NamedTuple in the engine)."""

    @property
    def left(self) -> tuple[int, ...]: ...  # ms per seat as of its last Clock step

    @property
    def running(self) -> int: ...  # the seat whose clock runs, -1 none

    @property
    def owed(self) -> int: ...  # the seat whose Clock step is owed, -1 none


@runtime_checkable
class ClockedGame(Protocol):
    clock_seat: int

    def clock(self, state: Any) -> Timing | None: ...

    def clock_step(self, used_ms: int) -> Any: ...

    def flag_step(self, elapsed_ms: int) -> Any: ...


_CLOCKED: dict[type, bool] = {}  # by game class: a Protocol isinstance is slow for a move


def timing(game: Any, state: Any) -> Timing | None:
    """The clocks of ``state``, None for a game without clocks or an untimed one."""
    kind = type(game)
    clocked = _CLOCKED.get(kind)
    if clocked is None:
        clocked = _CLOCKED[kind] = isinstance(game, ClockedGame)
    return game.clock(state) if clocked else None


def owed_steps(game: Any, state: Any, used_ms: int) -> list[tuple[int, Any]]:
    """The host's steps due after a seat's action reached ``state``: its ``Clock`` step
    when that action finished a move of a timed game, else none."""
    t = timing(game, state)
    if t is None or t.owed < 0:
        return []
    return [(game.clock_seat, game.clock_step(used_ms))]


def flag_step(game: Any, elapsed_ms: int) -> tuple[int, Any]:
    """The host's step saying the running clock fell after ``elapsed_ms`` of thought."""
    return game.clock_seat, game.flag_step(elapsed_ms)


class TurnClock:
    """The running seat's thinking time at one table. ``update`` is told, whenever the
    table changes, which turn it is (``key``: a new key starts a new turn at zero) and
    whether the clock runs (the game is timed and in play, and someone is at the table)."""

    def __init__(self) -> None:
        self.key: Hashable | None = None
        self.spent = 0.0  # seconds of this turn before the last pause
        self.since: float | None = None  # when it last started running, None while paused

    def update(self, key: Hashable | None, running: bool, now: float) -> bool:
        """Follow the table; True when the flag deadline must be set again."""
        changed = key != self.key
        if changed:
            self.key, self.spent, self.since = key, 0.0, None
        if running and self.since is None:
            self.since = now
            return True
        if not running and self.since is not None:
            self.spent += now - self.since
            self.since = None
            return True
        return changed

    def used(self, now: float) -> float:
        """Seconds the running seat has thought on this turn."""
        return self.spent + (now - self.since if self.since is not None else 0.0)

    def used_ms(self, now: float) -> int:
        return max(0, round(self.used(now) * 1000))


def turn_key(game_no: int, t: Timing | None) -> Hashable | None:
    """A turn: the game, whose clock runs, and the times left when it started running."""
    return None if t is None or t.running < 0 else (game_no, t.running, t.left)


def seconds_left(t: Timing | None, clock: TurnClock, now: float) -> float | None:
    """Seconds on the running clock now, None when none runs."""
    if t is None or t.running < 0:
        return None
    return max(0.0, t.left[t.running] / 1000 - clock.used(now))
