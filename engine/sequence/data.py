"""Sequence's plain data: actions, chance outcomes and views (what crosses the wire).

Frozen dataclasses of str, int, bool and tuples only, encoded by the generic codec with a
``"type"`` tag. Each action's type says what tapping it does, so a client can describe it
without knowing the rules: ``place`` a chip on a card's square, ``wild`` (a two-eyed jack on
any empty square), ``remove`` (a one-eyed jack takes an opponent's chip away; ``team`` is
whose), ``double`` (two identical cards, both squares), ``exchange_dead`` (swap a dead card and
keep the turn), ``discard`` (nothing can be played: discard a card, draw, and pass).

Squares are ``(row, col)`` with row 0 the 2S..9S edge. Cards are two-character codes. This
module holds no logic and must never hold anything a seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- actions -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Play ``card`` and put a chip on its square (row, col)."""

    card: str
    row: int
    col: int


@dataclass(frozen=True)
class Wild:
    """Play a two-eyed jack (JD, JC): a chip on any empty square."""

    card: str
    row: int
    col: int


@dataclass(frozen=True)
class Remove:
    """Play a one-eyed jack (JH, JS): take away ``team``'s chip from (row, col)."""

    card: str
    row: int
    col: int
    team: int


@dataclass(frozen=True)
class Double:
    """Play both copies of ``card`` (variant ``doubles``): chips on both of its squares."""

    card: str
    row: int
    col: int
    row2: int
    col2: int


@dataclass(frozen=True)
class ExchangeDead:
    """Discard a dead card (both squares taken), draw a replacement, and keep the turn."""

    card: str


@dataclass(frozen=True)
class Discard:
    """Nothing in hand can be played: discard ``card``, draw, and pass the turn."""

    card: str


ACTION_TYPES: tuple[type, ...] = (Place, Wild, Remove, Double, ExchangeDead, Discard)

# -- chance outcomes -------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardLayout:
    """The generated board (option ``board=random``): 10 rows of 10 codes, XX at the corners."""

    TAG = "layout"
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Shuffle:
    """The two decks shuffled together, top first; hands are dealt from the top, in seat order."""

    deck: tuple[str, ...]


@dataclass(frozen=True)
class Reshuffle:
    """The discard pile shuffled into a new draw pile, top first."""

    deck: tuple[str, ...]


CHANCE_TYPES: tuple[type, ...] = (BoardLayout, Shuffle, Reshuffle)

# -- views -------------------------------------------------------------------------------------

Square = tuple[int, int]


@dataclass(frozen=True)
class HandCard:
    """A card in the seat's hand; ``caption`` is a message key when it means more than its face:
    ``sequence.card.wild``, ``sequence.card.remove`` or ``sequence.card.dead``."""

    card: str
    caption: str | None


@dataclass(frozen=True)
class Line:
    """A completed sequence: its team and its five squares (a free corner may be one)."""

    team: int
    squares: tuple[Square, ...]


@dataclass(frozen=True)
class LastMove:
    """The move just made, for highlighting. ``squares``: where chips went or were taken."""

    seat: int
    type: str  # the action's tag
    card: str
    squares: tuple[Square, ...]
    captured: tuple[Square, ...]
    new_sequences: int


@dataclass(frozen=True)
class RulesView:
    """The options a player needs to know (and a computer player to reason with)."""

    sequences_to_win: int  # 0 with fill_board: play until the board is full
    dead_card: bool
    fill_board: bool
    reshuffle: bool
    doubles: bool
    captures: bool
    captures_to_win: int  # 0 without the captures variant


@dataclass(frozen=True)
class SequenceView:
    """What one seat (or a spectator, ``seat`` None) may know.

    ``chips``: per square the team whose chip is on it, -1 for none (free corners are ``XX`` in
    ``layout``). ``discards``: the discard pile since the last reshuffle, oldest first; with the
    seat's hand it tells a card counter exactly which copies are out of reach. ``score`` and
    ``captures`` are per team.
    """

    seat: int | None
    team: int | None
    players: int
    teams: tuple[int, ...]  # the team of each seat
    layout: tuple[tuple[str, ...], ...]
    chips: tuple[tuple[int, ...], ...]
    sequences: tuple[Line, ...]
    locked: tuple[Square, ...]
    hand: tuple[HandCard, ...]
    hand_counts: tuple[int, ...]
    discards: tuple[str, ...]
    draw_pile: int
    score: tuple[int, ...]
    captures: tuple[int, ...]
    last: LastMove | None
    turn: int | None
    to_act: tuple[int, ...]
    exchanged: bool  # the seat to act has already exchanged a dead card this turn
    rules: RulesView
