"""The presentation contract: what every view shares, and how a game asks to be drawn.

Two parts, both plain data the codec sends as JSON:

- ``Common``: the fields every seat's view carries whatever the game (the seat, the seats to
  act, the own hand, the other hands as counts, the sides, the scores, the phase, the last
  action, the captions, what is said of each seat: a note at its feet and its badges, and of
  each side, the result of the hand just over, a score sheet of rounds, and the marks a grid
  board shows over its pieces). A game builds it in ``Game.common(view)`` from what that seat
  may know, exactly like its view; the host sends it beside the view, so a client can draw a
  seat strip, a score line, a status and a result for any game without knowing it: game
  knowledge written once here, not in each client's hooks.
- ``Presentation``: the catalogue entry's descriptor. Its ``family`` picks the client renderer
  (one per family, not one per game), its ``zones`` say which view fields are drawn as what,
  and its ``gestures`` say how a legal action's fields are entered (a ``card`` is a tap on
  that card of the hand, ``cards`` a multi-select that must equal one legal action, ``cell`` a
  tap on the grid, ``from``/``to`` a tap-tap or a drag; any other field is a labelled button).

Sides and seat colours come from here and from ``Game.teams``, never from a client's guess.
This module must never import a game, do I/O, or hold anything a seat may not know: it is
only the shape, checked when a catalogue entry is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Family = Literal["trick_taking", "shedding", "grid_board", "track_board", "code_breaking",
                 "generic"]
ZoneKind = Literal["hand", "trick", "piles", "grid", "track", "score_sheet", "code_rows"]
GestureKind = Literal["card", "cards", "cell", "from_to", "button"]

FAMILIES: tuple[Family, ...] = ("trick_taking", "shedding", "grid_board", "track_board",
                                "code_breaking", "generic")
ZONE_KINDS: tuple[ZoneKind, ...] = ("hand", "trick", "piles", "grid", "track", "score_sheet",
                                    "code_rows")
GESTURE_KINDS: tuple[GestureKind, ...] = ("card", "cards", "cell", "from_to", "button")
# Which gestures can point into which zones: a card is in a hand, a cell on a grid...
_GESTURE_ZONES: dict[GestureKind, tuple[ZoneKind, ...]] = {
    "card": ("hand",), "cards": ("hand",), "cell": ("grid",), "from_to": ("grid", "track"),
    "button": (),
}

# The bound on one seat's legal list as the wire encodes it (compact JSON), checked for every
# registered game by the conformance test. Sequence's worst case sets it: two distinct
# two-eyed jacks on an empty board give 2 x 96 placements, and removals share those 96
# squares, about 9 KB in all. A move with more combinations is entered in steps
# (docs/architecture.md, "Compound moves").
LEGAL_BYTES_MAX = 10 * 1024


@dataclass(frozen=True)
class Caption:
    """A line for the player: a message key of the game's string catalogue and its arguments.

    Arguments are text or numbers; a text argument that is itself a key is translated too.
    """

    key: str
    args: tuple[tuple[str, str | int], ...] = ()


Cell = tuple[int, int]  # a grid cell: (row, col), as the grid zone's rows and columns

# A grid face printed with no card: a free cell (Sequence's corners, a chip of every side).
FREE = "XX"


@dataclass(frozen=True)
class Sheet:
    """A score sheet: a table of captions every client draws as one (the web's Scores panel,
    the kiosk between hands, the terminal's lines), so no game draws its own.

    ``heads`` are the column heads (the first heads the rows' own column: "Round"); each of
    ``rows`` is one line of cells as long as ``heads``, oldest first, its first cell naming it;
    ``totals`` is an optional closing line of the same length. ``legend`` says how to read a
    cell ("bid/taken, points, total").
    """

    title: Caption
    heads: tuple[Caption, ...]
    rows: tuple[tuple[Caption, ...], ...]
    totals: tuple[Caption, ...] = ()
    legend: Caption | None = None


@dataclass(frozen=True)
class GridLine:
    """A run of grid cells one side completed (a Sequence), struck through in its colour."""

    side: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Marks:
    """What a grid board shows over its pieces: completed ``lines``, ``locked`` pieces (part of
    a line: they can no longer be taken), the cells of the ``last`` move (ringed) and those a
    piece was just ``removed`` from (crossed out)."""

    lines: tuple[GridLine, ...] = ()
    locked: tuple[Cell, ...] = ()
    last: tuple[Cell, ...] = ()
    removed: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Common:
    """The part of every seat's view that every client understands.

    ``scores`` are by side (index = the side number in ``teams``); ``hand_counts`` by seat
    (empty for a game without hands); ``hand`` is this seat's own cards or pieces in hand (two-
    character cards), empty for a spectator. ``last`` is the last action in words, ``None``
    before the first. ``captions`` are the game's status lines (trump, the round, the target).
    ``side_notes`` say each side's standing in words (by side, like ``scores``: "1 of 2
    sequences"); ``sheet`` is the game's score sheet of rounds, ``marks`` what its grid shows
    over the pieces; both ``None`` when the game has none.
    """

    seat: int | None
    to_act: tuple[int, ...]
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    teams: tuple[int, ...]
    scores: tuple[int, ...]
    phase: str
    last: Caption | None = None
    captions: tuple[Caption, ...] = ()
    seat_notes: tuple[Caption | None, ...] = ()
    badges: tuple[tuple[Caption, ...], ...] = ()
    result: tuple[Caption, ...] = ()
    side_notes: tuple[Caption, ...] = ()
    sheet: Sheet | None = None
    marks: Marks | None = None


@dataclass(frozen=True)
class Zone:
    """One thing the renderer draws: ``field`` is the view field it reads.

    ``rows``/``cols`` size a grid; ``points`` counts a track's points; ``labels`` names how
    cells are labelled (``"algebraic"``: a1..h8, ``"numbered"``: 1..n, ``""``: none).
    ``faces`` names the view field printed under a grid's pieces, a row of faces per grid row:
    a two-character card (Sequence's board), ``FREE`` for a free cell; ``""``: a plain board.
    """

    name: str
    kind: ZoneKind
    field: str
    rows: int = 0
    cols: int = 0
    points: int = 0
    labels: str = ""
    faces: str = ""


@dataclass(frozen=True)
class Gesture:
    """How some fields of a legal action are entered: by ``kind`` on the zone named ``zone``.

    ``fields`` are the action's field names the gesture fills: ``("card",)`` for a card,
    ``("row", "col")`` for a grid cell, ``("from", "to")`` for a move between points.
    ``types`` names the action types it enters when only some of those that carry its fields
    are entered that way (Sequence: a double names two squares, so it is a button, not a cell
    tap); empty means every action with the fields.
    """

    fields: tuple[str, ...]
    kind: GestureKind
    zone: str = ""
    types: tuple[str, ...] = ()


@dataclass(frozen=True)
class Presentation:
    """A catalogue entry's drawing instructions; ``generic`` draws any view readably."""

    family: Family = "generic"
    zones: tuple[Zone, ...] = ()
    gestures: tuple[Gesture, ...] = ()
    seat_colours: tuple[str, ...] = field(default=())  # by side: colour names the clients know

    def __post_init__(self) -> None:
        problems = presentation_problems(self)
        if problems:
            raise ValueError("; ".join(problems))


SEAT_COLOURS = ("blue", "green", "red", "yellow", "purple", "orange", "white", "black")


def presentation_problems(p: Presentation) -> list[str]:
    """What is wrong with a descriptor, as readable lines (empty when it is sound)."""
    out: list[str] = []
    if p.family not in FAMILIES:
        out.append(f"unknown family {p.family!r}")
    names = [z.name for z in p.zones]
    if len(set(names)) != len(names):
        out.append("zone names repeat")
    zones = {z.name: z for z in p.zones}
    for z in p.zones:
        if z.kind not in ZONE_KINDS:
            out.append(f"zone {z.name}: unknown kind {z.kind!r}")
        if z.kind == "grid" and (z.rows <= 0 or z.cols <= 0):
            out.append(f"zone {z.name}: a grid needs rows and cols")
        if z.faces and z.kind != "grid":
            out.append(f"zone {z.name}: only a grid has printed faces")
        if z.kind == "track" and z.points <= 0:
            out.append(f"zone {z.name}: a track needs points")
    for g in p.gestures:
        if g.kind not in GESTURE_KINDS:
            out.append(f"gesture {','.join(g.fields)}: unknown kind {g.kind!r}")
            continue
        wanted = _GESTURE_ZONES[g.kind]
        if wanted and (g.zone not in zones or zones[g.zone].kind not in wanted):
            out.append(f"gesture {','.join(g.fields)}: a {g.kind} points into a "
                       f"{' or '.join(wanted)} zone")
        if not g.fields:
            out.append(f"a {g.kind} gesture fills no field")
    out += [f"unknown seat colour {c!r}" for c in p.seat_colours if c not in SEAT_COLOURS]
    return out


GENERIC = Presentation()
