"""Sequence table options: the catalogue entry, player counts, teams and hand sizes.

``Rules`` is the checked options of one table in the form the rules use; ``resolve_teams`` is
the one place the teams / players_per_team options are reconciled (and refused with an
``OptionError`` naming the allowed values). No game logic lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.catalogue import GameInfo, Option
from engine.errors import OptionError
from engine.presentation import Gesture, Presentation, Zone
from engine.sequence.data import RulesView

RULES_VERSION = "1.1"  # 1.1: long lines count at their best (issue 19); docs/rules/sequence.md
CAPTURES_TO_WIN = 5


def hand_size(players: int) -> int:
    if players == 2:
        return 7
    if players <= 4:
        return 6
    if players <= 6:
        return 5
    if players <= 9:
        return 4
    return 3


def team_splits(players: int) -> tuple[int, ...]:
    """The team counts ``players`` seats can split into evenly (2 or 3 teams)."""
    return tuple(t for t in (2, 3) if players % t == 0)


PLAYER_COUNTS = tuple(p for p in range(2, 13) if team_splits(p))  # 5, 7 and 11 cannot split


@dataclass(frozen=True)
class Rules:
    """The checked options of one table, in the form the rules use."""

    players: int
    teams: int
    team_of: tuple[int, ...]
    hand_size: int
    to_win: int  # sequences to win; 0 with fill_board
    random_board: bool
    dead_card: bool
    fill_board: bool
    reshuffle: bool
    doubles: bool
    captures: bool

    @classmethod
    def from_options(cls, players: int, options: Mapping[str, Any]) -> Rules:
        teams = resolve_teams(players, options)
        fill = bool(options.get("fill_board", False))
        to_win = options.get("sequences_to_win")
        if to_win is None:
            to_win = 2 if teams == 2 else 1
        return cls(
            players=players,
            teams=teams,
            team_of=tuple(s % teams for s in range(players)),
            hand_size=hand_size(players),
            to_win=0 if fill else int(to_win),
            random_board=options.get("board", "commercial") == "random",
            dead_card=bool(options.get("dead_card", True)),
            fill_board=fill,
            reshuffle=bool(options.get("reshuffle", True)),
            doubles=bool(options.get("doubles", False)),
            captures=bool(options.get("captures", False)),
        )

    @cached_property
    def view(self) -> RulesView:
        """What a view shows of these rules (every view of the table carries it: built once)."""
        return RulesView(self.to_win, self.dead_card, self.fill_board, self.reshuffle,
                         self.doubles, self.captures, CAPTURES_TO_WIN if self.captures else 0)


def resolve_teams(players: int, options: Mapping[str, Any]) -> int:
    """The number of teams, from ``teams`` and/or ``players_per_team``, or OptionError."""
    splits = team_splits(players)
    teams = options.get("teams")
    per = options.get("players_per_team")
    if teams is not None and teams not in splits:
        raise OptionError("teams", f"{players} players cannot split evenly into {teams} teams",
                          splits)
    if per is not None:
        allowed = tuple(players // t for t in splits)
        if per not in allowed or (teams is not None and teams * per != players):
            if teams is not None:
                allowed = (players // teams,)
            raise OptionError("players_per_team",
                              f"{players} players cannot play {per} to a team", allowed)
        teams = players // per
    if teams is None:
        teams = 2 if players % 2 == 0 else 3
    return int(teams)


OPTIONS = (
    Option("teams", "int", None, "number of teams (2 or 3); unset: 2 if the seats split "
           "evenly in two, else 3", minimum=2, maximum=3, nullable=True),
    Option("players_per_team", "int", None, "seats per team (teams = players / this); "
           "unset: from teams", minimum=1, maximum=6, nullable=True),
    Option("board", "choice", "commercial", "board layout: the commercial one, or a seeded "
           "random one (each card twice, never beside its twin)", choices=("commercial", "random")),
    Option("sequences_to_win", "int", None, "sequences needed to win; unset: 2 with two "
           "teams, 1 with three", minimum=1, maximum=6, nullable=True),
    Option("dead_card", "bool", True, "a card whose two squares are both taken may be "
           "exchanged once per turn without losing the turn"),
    Option("fill_board", "bool", False, "variant: play until the board is full, one point "
           "per sequence; chips in sequences may be removed"),
    Option("reshuffle", "bool", True, "shuffle the discards into a new draw pile when it runs "
           "out (off: play on with what is left)"),
    Option("doubles", "bool", False, "variant: two identical cards may be played together, "
           "a chip on each of their squares, drawing two"),
    Option("captures", "bool", False, "variant: flanking exactly two opposing chips "
           "(not in a sequence) in a line captures them; five captures win"),
)

INFO = GameInfo(
    id="sequence",
    title="Sequence",
    players=PLAYER_COUNTS,
    default_players=2,
    rules_version=RULES_VERSION,
    summary="Play a card, claim its square; five chips in a row make a sequence.",
    teams="2 or 3 play singly; more split evenly into 2 or 3 teams, seats alternating "
          "(team = seat mod teams)",
    options=OPTIONS,
    presentation=Presentation(
        family="grid_board",
        zones=(Zone("hand", "hand", "hand"), Zone("board", "grid", "chips", rows=10, cols=10,
                                                         faces="layout"),
               Zone("discards", "piles", "discards")),
        # A double (variant "doubles") names its second square in its button.
        gestures=(Gesture(("card",), "card", "hand"),
                  Gesture(("row", "col"), "cell", "board", types=("place", "wild", "remove"))),
        seat_colours=("blue", "green", "red"),
    ),
)
