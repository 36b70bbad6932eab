"""The rules interface every game implements, and the plain data it shares.

A game is a stateless object (one instance per game, in its package as ``GAME``) whose
methods are pure functions of an immutable state:

- ``new_state(players, options, seed)``: the only place a seed enters. The state starts with a
  chance step pending (the first deal).
- ``chance_outcome(state)``: the outcome of the pending chance step, drawn deterministically
  from the seed and the number of chance steps so far, or ``None`` when none is pending.
  ``apply_chance(state, outcome)`` applies it; a record can pin any possible outcome by hand
  (a stacked deck), and an impossible one raises ``IllegalAction(BAD_CHANCE)``.
- ``to_act(state)``: the seats that may act now (empty while chance is pending or at the end).
- ``legal_actions(state, seat)``: the complete list; empty for a seat not to act. The single
  source of truth for what is legal.
- ``apply(state, seat, action)``: a new state, or ``IllegalAction`` with a stable code. Never a
  half-changed state (states are immutable, so a refusal leaves the old one as it was).
- ``view(state, seat | None)``: what that seat may know; ``None`` is a spectator. Built from an
  allow-list, never by copying the state and deleting secrets.
- ``outcome(state)``: ``None`` while playing.
- ``common(view)``: the part of a seat's view every client understands (the seat, who acts,
  the own hand, hand counts, sides, scores, phase, captions), derived from the view alone.
- ``resample_hidden(state, seat, rng)``: the same state with everything ``seat`` cannot know
  (other hands, undealt cards, the seed) redrawn at random, consistently with what it does
  know. Tests check that ``view`` is invariant under it: the double-entry proof of no leak.

This module must never do I/O, read the clock, or use the global random generator.
"""

from __future__ import annotations

import _random
import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.catalogue import GameInfo
from engine.codec import Registry
from engine.presentation import Common

S = TypeVar("S")


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` are seats (empty for a draw); ``scores`` are per seat.

    ``reason`` is a message key for clients to translate (``"sequence.won_by_sequences"``).
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str
    draw: bool = False


@dataclass(frozen=True)
class SeatInfo:
    """Static facts about one seat: its side (team) index."""

    seat: int
    team: int


def chance_rng(seed: int, index: int) -> random.Random:
    """A generator for chance step ``index`` of a game seeded with ``seed``.

    Derived statelessly so that a game restored by replay draws exactly what it would have
    drawn had it never stopped, with no generator state to store.
    """
    digest = hashlib.blake2b(f"tablebox:{seed}:{index}".encode(), digest_size=16).digest()
    # What random.Random(n) builds (for an int its __init__ only runs the C seed and clears
    # gauss_next), minus two Python-level calls: this runs once per deal, in every game.
    rng = _new_random(random.Random)
    _c_seed(rng, int.from_bytes(digest, "big"))
    rng.gauss_next = None  # type: ignore[attr-defined]  # set by Random.__init__, not typed
    return rng


_new_random = random.Random.__new__
_c_seed = _random.Random.seed


class Game(ABC, Generic[S]):
    """Base of every game. Subclasses set ``info`` and the three type lists."""

    info: GameInfo
    action_types: tuple[type, ...] = ()
    chance_types: tuple[type, ...] = ()

    def __init__(self) -> None:
        self.actions = Registry(self.action_types)
        self.chances = Registry(self.chance_types)

    # -- set-up ---------------------------------------------------------------------------
    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        """Cross-option checks (raise OptionError). Single options are checked by the info."""

    def validate(self, players: int, options: Mapping[str, object] | None) -> dict[str, Any]:
        """Full, checked options for ``players`` seats, or OptionError."""
        self.info.check_players(players)
        parsed = self.info.parse_options(options)
        self.check_options(players, parsed)
        return parsed

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """The side of each seat. Default: every seat plays for itself."""
        return tuple(range(players))

    @abstractmethod
    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> S: ...

    # -- chance -----------------------------------------------------------------------------
    @abstractmethod
    def chance_outcome(self, state: S) -> Any | None: ...

    @abstractmethod
    def apply_chance(self, state: S, outcome: Any) -> S: ...

    # -- play ------------------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> tuple[Any, ...]: ...

    @abstractmethod
    def apply(self, state: S, seat: int, action: Any) -> S: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> Any: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def resample_hidden(self, state: S, seat: int | None, rng: random.Random) -> S: ...

    # -- presentation ------------------------------------------------------------------------
    def common(self, view: Any) -> Common:
        """The shared part of a seat's ``view`` (engine/presentation.py), built from that view
        alone, so it can hold nothing the view does not. Every registered game implements it
        (the conformance test checks); the host sends it beside the view."""
        raise NotImplementedError(f"{self.info.id} does not build the common part of its views")

    # -- host hints --------------------------------------------------------------------------
    def between_hands(self, state: S) -> bool:
        """True when a hand or round has just been scored and the next deal is pending.

        Hosts pause here so clients can show the result before the next deal.
        """
        return False
