"""President's plain data: the phases, the titles, the actions, and the state tuple.

Shared by the rules (``rules.py``) and the views (``views.py``) so that neither imports the
other. Owns no behaviour beyond ``titles``; it must never import the rules or the views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# Phases.
DEAL = "deal"  # before the first deal
EXCHANGE = "exchange"  # President and Vice-President choose what to give back
PLAY = "play"
BETWEEN = "between"  # a round is scored; the next deal is pending
OVER = "over"

# Title keys by finishing place, for clients to translate (docs/rules/president.md).
PRESIDENT, VICE_PRESIDENT, CITIZEN, VICE_SCUM, SCUM = (
    "president", "vice_president", "citizen", "vice_scum", "scum")


def titles(players: int) -> tuple[str, ...]:
    """The title of each finishing place. With three players the middle one is a Citizen:
    the Vice titles come as a pair that exchange, and three players have no such pair."""
    if players < 4:
        return (PRESIDENT, *([CITIZEN] * (players - 2)), SCUM)
    return (PRESIDENT, VICE_PRESIDENT, *([CITIZEN] * (players - 4)), VICE_SCUM, SCUM)


# -- actions and chance ---------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """Play these cards, one to four of one rank, listed weakest suit first (as offered)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Pass:
    """Pass; final until the trick is cleared."""


@dataclass(frozen=True)
class GiveBack:
    """The President's two (the Vice-President's one) cards for the exchange partner."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Deal:
    """One round's deal: the 52 cards in order; card ``k`` goes to seat ``k % players``."""

    cards: tuple[str, ...]


PASS = Pass()

class PlayInfo(NamedTuple):
    rank: int
    mask: int  # the cards as a 52-bit mask
    size: int
    play: Play  # the shared instance


class Leg(NamedTuple):
    """One half of the series exchange: ``giver`` (Scum or Vice-Scum) gave ``given``
    automatically to ``receiver``, who gives ``back`` (-1 until chosen) of ``size`` cards."""

    giver: int
    receiver: int
    given: int
    back: int
    size: int


class State(NamedTuple):
    players: int
    revolution: bool  # option: four of a kind reverses the order
    rounds: int  # option: rounds in the game
    seed: int
    chances: int  # chance steps (deals) applied so far
    round: int  # 1-based; 0 before the first deal
    phase: str
    hands: tuple[int, ...]  # 52-bit masks per seat
    turn: int  # the seat to play (phase PLAY)
    trick: tuple[tuple[int, PlayInfo], ...]  # (seat, play) of the current trick, in order
    passed: int  # seats (bit mask) that passed in the current trick
    reversed: bool  # a revolution is in force
    out: int  # seats (bit mask) that have emptied their hands this round
    places: tuple[int, ...]  # this round's finishing order so far
    played: int  # every card played this round (mask)
    totals: tuple[int, ...]
    round_points: tuple[int, ...]  # the last scored round's points per seat; () before
    previous: tuple[int, ...]  # the previous round's places (titles, exchange, leader)
    legs: tuple[Leg, ...]  # this round's exchange
