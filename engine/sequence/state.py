"""Sequence positions and how they change: the state, the layout tables, every transition.

The state is immutable by contract: every transition starts from ``State.copy`` and changes
only the copy (a slotted object of ints and tuples, so a copy is a couple of dozen pointer
writes). The only writes to a finished state are two memos: the legal actions of the seat
to act, and the public part of its views (both cleared by ``copy``). Chips are bit masks per team (board.py); hands are sorted tuples of card ints; the draw
pile is a tuple with a read position, so a draw copies nothing.

This module owns sequence detection (incremental: only lines through the new chip; each run
of a team's squares counted at its best whatever order it was filled in, see ``_arrange``),
captures, drawing (a reshuffle stops the draw as a pending chance step), turn order and the
end of the game. It never checks whether an action is legal: rules.py does that before
calling in.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from engine.game import Outcome
from engine.sequence import board as B
from engine.sequence.data import Discard, Double, ExchangeDead, Place, Remove, Wild
from engine.sequence.options import CAPTURES_TO_WIN, Rules

WON_BY_SEQUENCES = "sequence.won_by_sequences"
WON_BY_CAPTURES = "sequence.won_by_captures"
NO_MOVES = "sequence.no_moves"
BOARD_FULL = "sequence.board_full"

# Phases.
LAYOUT, DEAL, PLAY, RESHUFFLE, OVER = range(5)


# -- action tables (built once; legal_actions hands out these very objects) ---------------------
CODES = B.CARDS
TWO_EYED = frozenset(B.TWO_EYED)
ONE_EYED = frozenset(B.ONE_EYED)
FULL_DECK: tuple[int, ...] = tuple(c for c in range(len(CODES)) for _ in range(B.COPIES))
SORTED_DECK = tuple(sorted(FULL_DECK))
RC = tuple(B.rc(s) for s in range(B.SQUARES))

WILD_AT: dict[int, B.Picker[Wild]] = {
    j: B.Picker([Wild(CODES[j], *RC[s]) for s in range(B.SQUARES)]) for j in B.TWO_EYED}
REMOVE_AT: dict[int, tuple[B.Picker[Remove], ...]] = {
    j: tuple(B.Picker([Remove(CODES[j], *RC[s], team) for s in range(B.SQUARES)])
             for team in range(3))
    for j in B.ONE_EYED}
EXCHANGE_OF = tuple(ExchangeDead(c) for c in CODES)
DISCARD_OF = tuple(Discard(c) for c in CODES)
TO_ACT = tuple((s,) for s in range(13))


class Tables:
    """What depends on the layout: each card's squares and the place/double action objects."""

    __slots__ = ("card_mask", "card_squares", "double", "first", "layout", "options", "place",
                 "rows", "second")

    def __init__(self, layout: B.Layout) -> None:
        self.layout = layout
        self.rows = B.rows_of(layout)
        squares: list[list[int]] = [[] for _ in CODES]
        for s, c in enumerate(layout):
            if c != B.FREE:
                squares[c].append(s)
        self.card_squares: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in squares)
        self.card_mask = tuple(sum(1 << s for s in x) for x in squares)
        self.place: tuple[Place | None, ...] = tuple(
            None if c == B.FREE else Place(CODES[c], *RC[s]) for s, c in enumerate(layout))
        self.double: tuple[Double | None, ...] = tuple(
            Double(CODES[c], *RC[x[0]], *RC[x[1]]) if len(x) == 2 else None
            for c, x in enumerate(self.card_squares))
        # For the legal-move loop: each card's two squares, and its place actions indexed by
        # which squares are taken (bit 0: the first, bit 1: the second).
        self.first = tuple(x[0] if x else 0 for x in squares)
        self.second = tuple(x[1] if x else 0 for x in squares)
        options: list[tuple[tuple[Place, ...], ...]] = []
        for x in squares:
            if not x:
                options.append(((), (), (), ()))
                continue
            p1, p2 = self.place[x[0]], self.place[x[1]]
            assert p1 is not None and p2 is not None
            options.append(((p1, p2), (p2,), (p1,), ()))
        self.options = tuple(options)


_TABLES: dict[B.Layout, Tables] = {}


def tables_for(layout: B.Layout) -> Tables:
    """The (cached) tables of a layout; random layouts are few per process but unbounded."""
    t = _TABLES.get(layout)
    if t is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        t = _TABLES[layout] = Tables(layout)
    return t


COMMERCIAL_TABLES = tables_for(B.COMMERCIAL)

# -- the state -----------------------------------------------------------------------------------


class State:
    """One position. Treat as immutable: transitions copy (``_copy``) and change the copy."""

    __slots__ = ("_legal", "_public", "captures", "chances", "chips", "deck", "discards", "exchanged",
                 "hands", "last", "locked", "occ", "owed", "owed_end", "phase", "pos",
                 "result", "rules", "seed", "seqs", "tables", "turn")

    rules: Rules
    seed: int
    chances: int
    phase: int
    tables: Tables
    chips: tuple[int, ...]  # per team: mask of its chips
    occ: int  # every chip
    locked: int  # protected chips: every chip in a complete line of five of its team
    seqs: tuple[tuple[int, ...], ...]  # per team: its sequences, a best arrangement of its runs
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    pos: int  # next card to draw is deck[pos]
    discards: tuple[int, ...]
    turn: int
    exchanged: bool
    owed: int  # cards the seat to act still has to draw (a reshuffle interrupted)
    owed_end: bool  # and then the turn passes
    captures: tuple[int, ...]  # per team
    last: tuple[int, str, int, tuple[int, ...], tuple[int, ...], int] | None
    result: Outcome | None
    _legal: tuple[Any, ...] | None
    _public: dict[str, Any] | None  # the seat-independent fields of its views (rules.py)

    def copy(self) -> State:
        n = State.__new__(State)
        n.rules = self.rules
        n.seed = self.seed
        n.chances = self.chances
        n.phase = self.phase
        n.tables = self.tables
        n.chips = self.chips
        n.occ = self.occ
        n.locked = self.locked
        n.seqs = self.seqs
        n.hands = self.hands
        n.deck = self.deck
        n.pos = self.pos
        n.discards = self.discards
        n.turn = self.turn
        n.exchanged = self.exchanged
        n.owed = self.owed
        n.owed_end = self.owed_end
        n.captures = self.captures
        n.last = self.last
        n.result = self.result
        n._legal = None
        n._public = None
        return n

    def team_at(self, square: int) -> int:
        bit = 1 << square
        for t, m in enumerate(self.chips):
            if m & bit:
                return t
        return -1


def new_state(rules: Rules, seed: int) -> State:
    st = State.__new__(State)
    st.rules = rules
    st.seed = seed
    st.chances = 0
    st.phase = LAYOUT if rules.random_board else DEAL
    st.tables = COMMERCIAL_TABLES
    st.chips = (0,) * rules.teams
    st.occ = 0
    st.locked = 0
    st.seqs = ((),) * rules.teams
    st.hands = ((),) * rules.players
    st.deck = ()
    st.pos = 0
    st.discards = ()
    st.turn = 0
    st.exchanged = False
    st.owed = 0
    st.owed_end = False
    st.captures = (0,) * rules.teams
    st.last = None
    st.result = None
    st._legal = None
    st._public = None
    return st


def remove_one(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def insert_sorted(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = bisect_left(hand, card)
    return (*hand[:i], card, *hand[i:])


def set_at(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1:])


# -- transitions (work on a fresh copy; never on a state anyone else holds) ----------------------


def put_chip(st: State, team: int, square: int) -> tuple[int, tuple[int, ...]]:
    """Place ``team``'s chip on the empty ``square`` of the copy ``st``.

    When it completes a line of five, the team's runs through it are scored again at their
    best (``_arrange``) and every chip of its complete lines through it is locked; with the
    captures variant it then captures. Returns (new sequences, captured squares).
    """
    bit = 1 << square
    own = st.chips[team] | bit
    st.chips = set_at(st.chips, team, own)
    st.occ |= bit
    mine = own | B.CORNER_MASK
    for w in B.LINES_THROUGH[square]:
        if w & mine == w:
            break
    else:
        return _no_line(st, team, square)
    before = seqs = st.seqs[team]
    complete = 0
    for d, per_dir in enumerate(B.WINDOWS_AT[square]):
        here = 0
        for w in per_dir:
            if w & mine == w:
                here |= w
        if here:
            complete |= here
            seqs = _arrange(seqs, B.LINE_AT[square][d], mine)
    st.seqs = set_at(st.seqs, team, seqs)
    # Every window this chip completed passes through it, so what they cover is all that is
    # newly protected (protection is the union of complete windows: board.SHARE); it
    # shrinks only when a protected chip goes, which only fill_board allows (take_chip).
    st.locked |= complete & ~B.CORNER_MASK
    made = len(seqs) - len(before)
    return made, (_captures(st, team, square) if st.rules.captures else ())


def _arrange(seqs: tuple[int, ...], line: int, mine: int) -> tuple[int, ...]:
    """``seqs`` (a team's sequences) with those on board line ``line`` laid anew for the team's
    squares ``mine``: in each run of five or more, one of the largest arrangements of windows
    the sharing rule allows (board.ARRANGEMENTS), the one keeping the most of the windows
    already shown there (the first in board order among equals). Kept windows keep their
    place; new ones go last. A team's count is therefore always the most its runs can hold,
    whatever order the chips came in, and a window once shown moves only when a longer run
    needs the room."""
    squares = B.BOARD_LINES[line]
    windows = B.BOARD_LINE_WINDOWS[line]
    line_mask = B.BOARD_LINE_MASKS[line]
    old = [e for e in seqs if e & line_mask == e]  # five squares of the line: on it
    chosen: list[int] = []
    n = len(squares)
    k = 0
    while k < n:
        if not mine >> squares[k] & 1:
            k += 1
            continue
        j = k + 1
        while j < n and mine >> squares[j] & 1:
            j += 1
        if j - k >= B.LINE:
            options = B.ARRANGEMENTS[j - k]
            pick = options[0]
            if old and len(options) > 1:
                kept = -1
                for starts in options:
                    have = sum(windows[k + p] in old for p in starts)
                    if have > kept:
                        pick, kept = starts, have
            chosen.extend(windows[k + p] for p in pick)
        k = j
    if len(chosen) == len(old) and all(w in old for w in chosen):
        return seqs
    return (*(e for e in seqs if e & line_mask != e or e in chosen),
            *(w for w in chosen if w not in old))


def _no_line(st: State, team: int, square: int) -> tuple[int, tuple[int, ...]]:
    return 0, (_captures(st, team, square) if st.rules.captures else ())


def _captures(st: State, team: int, square: int) -> tuple[int, ...]:
    own = st.chips[team]
    out: list[int] = []
    for a, b, far in B.CAPTURE_LINES[square]:
        if not own & far or (a | b) & st.locked:
            continue
        for u, m in enumerate(st.chips):
            if u != team and m & a and m & b:
                st.chips = set_at(st.chips, u, m & ~(a | b))
                st.occ &= ~(a | b)
                st.captures = set_at(st.captures, team, st.captures[team] + 1)
                out.extend((a.bit_length() - 1, b.bit_length() - 1))
                break
    return tuple(out)


def take_chip(st: State, team: int, square: int) -> None:
    """Remove ``team``'s chip from ``square`` on the copy ``st`` (fill_board may break lines)."""
    bit = 1 << square
    st.chips = set_at(st.chips, team, st.chips[team] & ~bit)
    st.occ &= ~bit
    if st.locked & bit:  # only possible with fill_board: the lines through it are broken
        mine = st.chips[team] | B.CORNER_MASK
        seqs = st.seqs[team]
        for line in B.LINE_AT[square]:
            if line >= 0:
                seqs = _arrange(seqs, line, mine)
        st.seqs = set_at(st.seqs, team, seqs)
        covered = 0
        for w in B.WINDOW_MASKS:
            if w & mine == w:
                covered |= w
        st.locked = (st.locked & ~(mine | bit)) | (covered & ~B.CORNER_MASK)


def draw(st: State) -> None:
    """Draw what the seat to act is owed; stop at a reshuffle (a chance step)."""
    owed = st.owed
    if owed:
        deck, pos, hand = st.deck, st.pos, st.hands[st.turn]
        while owed:
            if pos < len(deck):
                hand = insert_sorted(hand, deck[pos])
                pos += 1
                owed -= 1
            elif st.rules.reshuffle and st.discards:
                break
            else:
                owed = 0  # nothing left to draw: play on with a smaller hand
        st.pos = pos
        st.owed = owed
        st.hands = set_at(st.hands, st.turn, hand)
        if owed:
            st.phase = RESHUFFLE
            return
    _after_draw(st)


def _after_draw(st: State) -> None:
    # A dead-card exchange with nothing left to draw can empty a hand mid-turn: pass then too.
    if st.owed_end or not st.hands[st.turn]:
        st.owed_end = False
        st.exchanged = False
        n = st.rules.players
        for k in range(1, n + 1):
            seat = (st.turn + k) % n
            if st.hands[seat]:
                st.turn = seat
                break
        else:
            finish(st, NO_MOVES)
            return
    if st.rules.reshuffle and (st.occ != B.PLAYABLE_MASK or st.occ & ~st.locked):
        return  # the common case of can_ever_move, without the call
    if not can_ever_move(st):
        finish(st, NO_MOVES)


def can_ever_move(st: State) -> bool:
    """Whether any chip can ever again be placed or removed.

    With reshuffling every card comes round again, so an empty square or a removable chip is
    enough. Without it, only the cards still in hands and in the draw pile count.
    """
    empty = B.PLAYABLE_MASK & ~st.occ
    removable = st.occ if st.rules.fill_board else st.occ & ~st.locked
    if st.rules.reshuffle:
        return bool(empty or removable)
    in_play = set(st.deck[st.pos:])
    for hand in st.hands:
        in_play.update(hand)
    if empty:
        if in_play & TWO_EYED:
            return True
        t = st.tables
        if any(t.card_mask[c] & empty for c in in_play):
            return True
    return bool(removable and in_play & ONE_EYED)


def finish(st: State, reason: str) -> None:
    r = st.rules
    points = tuple(len(s) for s in st.seqs)
    scores = tuple(points[t] for t in r.team_of)
    st.phase = OVER
    st.owed = 0
    if reason in (WON_BY_SEQUENCES, WON_BY_CAPTURES):
        winner = r.team_of[st.turn]
        st.result = Outcome(tuple(s for s in range(r.players) if r.team_of[s] == winner),
                            scores, reason)
        return
    if r.fill_board:
        best = max(points)
        leaders = [t for t in range(r.teams) if points[t] == best]
        if len(leaders) == 1:
            st.result = Outcome(
                tuple(s for s in range(r.players) if r.team_of[s] == leaders[0]), scores, reason)
            return
    st.result = Outcome((), scores, reason, draw=True)


def end_play(st: State, team: int, draws: int) -> State:
    """After a chip is placed or removed: win checks, then the draw, then the next turn."""
    r = st.rules
    if r.captures and st.captures[team] >= CAPTURES_TO_WIN:
        finish(st, WON_BY_CAPTURES)
    elif not r.fill_board and len(st.seqs[team]) >= r.to_win:
        finish(st, WON_BY_SEQUENCES)
    elif r.fill_board and st.occ == B.PLAYABLE_MASK:
        finish(st, BOARD_FULL)
    else:
        st.owed = draws
        st.owed_end = True
        draw(st)
    return st
