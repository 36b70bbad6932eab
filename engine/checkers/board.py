"""English draughts on 32 bits: squares, move generation, making a move, perft, notation.

The board is three 32-bit masks (``dark``, ``light``, ``kings``); bit ``i`` is square ``i + 1``
of the standard numbering. Square 1 is on the top row of the usual diagram (the dark side
sets up on 1-12 at the top and moves down, towards 32); rows alternate between the columns
b d f h (squares 1-4, 9-12, ...) and a c e g (5-8, 13-16, ...). Seat 0 plays dark and moves
first. ``grid_of``/``square_at`` convert to (row, col) of an 8x8 grid, row 0 at the top.

A move is ``(path, captured)``: the squares the piece stands on in order (its origin first,
then every landing) and the mask of the pieces it jumps. A multi-jump is one move. Captured
pieces are removed when the move ends, as the rules say; removing them at once would give the
same moves, because a landing square never has the colour of a jumped one (a jump changes
both coordinates by two), so no chain can ever land where a piece was taken.

This module owns the geometry and the move rules (compulsory capture across every piece,
men forward only, kings both ways, one square at a time, no piece jumped twice, crowning
ends the move). It must never know about seats' views, options, draws or the rules
interface; it must never do I/O or use a random generator. Everything here is on the hot
path of the search and of perft, so it works on plain ints and tuples.
"""

from __future__ import annotations

from collections.abc import Iterator

Move = tuple[tuple[int, ...], int]  # (path of square indices, captured mask)

FULL = (1 << 32) - 1
DARK, LIGHT = 0, 1  # the side to move; equal to the seat that plays it

# Start: dark men on 1-12, light men on 21-32.
START_DARK = (1 << 12) - 1
START_LIGHT = FULL ^ ((1 << 20) - 1)


def grid_of(s: int) -> tuple[int, int]:
    """(row, col) on the 8x8 grid, row 0 at the top (squares 1-4), col 0 the a-file."""
    r = s // 4
    return r, 2 * (s % 4) + (1 if r % 2 == 0 else 0)


_AT: dict[tuple[int, int], int] = {grid_of(s): s for s in range(32)}


def square_at(row: int, col: int) -> int:
    """The square index at (row, col), or -1 for a light (unplayable) square or off the board."""
    return _AT.get((row, col), -1)


def _tables() -> tuple[list[tuple[int, ...]], list[tuple[tuple[int, int], ...]]]:
    """For each square and each diagonal direction: the neighbour, and (jumped, landing)."""
    dirs = ((1, -1), (1, 1), (-1, -1), (-1, 1))  # down-left, down-right, up-left, up-right
    steps: list[tuple[int, ...]] = []
    jumps: list[tuple[tuple[int, int], ...]] = []
    for s in range(32):
        r, c = grid_of(s)
        st: list[int] = []
        jp: list[tuple[int, int]] = []
        for dr, dc in dirs:
            st.append(square_at(r + dr, c + dc))
            over, land = square_at(r + dr, c + dc), square_at(r + 2 * dr, c + 2 * dc)
            jp.append((over, land) if over >= 0 and land >= 0 else (-1, -1))
        steps.append(tuple(st))
        jumps.append(tuple(jp))
    return steps, jumps


_STEPS, _JUMPS = _tables()
# Per side: a man's forward steps and jumps (dark moves down: directions 0 and 1; light up:
# 2 and 3). Kings use all four. Pre-filtered so the generators loop over real squares only.
_DIRS = ((0, 1), (2, 3))
MAN_STEPS = tuple(tuple(tuple(_STEPS[s][d] for d in _DIRS[side] if _STEPS[s][d] >= 0)
                        for s in range(32)) for side in (DARK, LIGHT))
KING_STEPS = tuple(tuple(t for t in _STEPS[s] if t >= 0) for s in range(32))
MAN_JUMPS = tuple(tuple(tuple(_JUMPS[s][d] for d in _DIRS[side] if _JUMPS[s][d][0] >= 0)
                        for s in range(32)) for side in (DARK, LIGHT))
KING_JUMPS = tuple(tuple(j for j in _JUMPS[s] if j[0] >= 0) for s in range(32))
# The row where each side's men are crowned: dark on 29-32, light on 1-4.
CROWN = (0xF << 28, 0xF)
ROWS = tuple(0xF << (4 * r) for r in range(8))


def bits(mask: int) -> Iterator[int]:
    """The set bit indices of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _chain(s: int, opp: int, empty: int, table: tuple[tuple[tuple[int, int], ...], ...],
           crown: int, path: tuple[int, ...], cap: int, out: list[Move]) -> None:
    """Every completion of a jump chain standing on ``s`` (``crown`` is 0 for a king)."""
    more = False
    for over, land in table[s]:
        ob = 1 << over
        if opp & ob and not cap & ob and empty >> land & 1:
            more = True
            p = (*path, land)
            if crown >> land & 1:  # a man reaching the king row: crowned, the move ends
                out.append((p, cap | ob))
            else:
                _chain(land, opp, empty, table, crown, p, cap | ob, out)
    if not more:
        out.append((path, cap))


def jumps(own: int, opp: int, kings: int, side: int) -> list[Move]:
    """Every complete capture of the side to move (``own``), each chain to its end."""
    out: list[Move] = []
    occupied = own | opp
    men_j = MAN_JUMPS[side]
    crown = CROWN[side]
    for s in bits(own):
        king = kings >> s & 1
        table = KING_JUMPS if king else men_j
        for over, land in table[s]:
            if opp >> over & 1 and not occupied >> land & 1:
                # The mover's own square is empty once it has left (a king may come back).
                empty = (FULL ^ occupied) | (1 << s)
                _chain(s, opp, empty, table, 0 if king else crown, (s,), 0, out)
                break
    return out


def moves(own: int, opp: int, kings: int, side: int) -> list[Move]:
    """Every legal move of the side to move: its captures if it has any (compulsory), else
    its plain moves. Empty when it has no legal move (it has lost)."""
    out = jumps(own, opp, kings, side)
    if out:
        return out
    empty = FULL ^ (own | opp)
    men_s = MAN_STEPS[side]
    for s in bits(own):
        for t in (KING_STEPS if kings >> s & 1 else men_s)[s]:
            if empty >> t & 1:
                out.append(((s, t), 0))
    return out


def has_move(own: int, opp: int, kings: int, side: int) -> bool:
    """Whether the side to move has any legal move, without listing them."""
    empty = FULL ^ (own | opp)
    men_s, men_j = MAN_STEPS[side], MAN_JUMPS[side]
    for s in bits(own):
        king = kings >> s & 1
        for t in (KING_STEPS if king else men_s)[s]:
            if empty >> t & 1:
                return True
        for over, land in (KING_JUMPS if king else men_j)[s]:
            if opp >> over & 1 and empty >> land & 1:
                return True
    return False


def make(own: int, opp: int, kings: int, side: int, move: Move) -> tuple[int, int, int]:
    """(own, opp, kings) after ``move``: the piece goes to its last square, the jumped
    pieces leave, and a man ending on its king row is crowned."""
    path, cap = move
    fb, tb = 1 << path[0], 1 << path[-1]
    own = (own ^ fb) | tb
    if cap:
        opp &= ~cap
        kings &= ~cap
    if kings & fb:
        kings = (kings ^ fb) | tb
    elif tb & CROWN[side]:
        kings |= tb
    return own, opp, kings


def play(dark: int, light: int, kings: int, side: int, move: Move) -> tuple[int, int, int]:
    """(dark, light, kings) after ``side`` plays ``move``."""
    if side == DARK:
        return make(dark, light, kings, side, move)
    light, dark, kings = make(light, dark, kings, side, move)
    return dark, light, kings


def perft(dark: int, light: int, kings: int, side: int, depth: int) -> int:
    """The number of move sequences of ``depth`` moves (a multi-jump is one move)."""
    own, opp = (dark, light) if side == DARK else (light, dark)
    ms = moves(own, opp, kings, side)
    if depth <= 1:
        return len(ms) if depth == 1 else 1
    total = 0
    for m in ms:
        o, p, k = make(own, opp, kings, side, m)
        total += _perft_opp(o, p, k, side, depth - 1)
    return total


def _perft_opp(own: int, opp: int, kings: int, side: int, depth: int) -> int:
    """perft with the mover's masks already swapped: the opponent (``opp``) is to move."""
    other = 1 - side
    ms = moves(opp, own, kings, other)
    if depth == 1:
        return len(ms)
    total = 0
    for m in ms:
        o, p, k = make(opp, own, kings, other, m)
        total += _perft_opp(o, p, k, other, depth - 1)
    return total


def is_man_move(kings: int, move: Move) -> bool:
    """True when a man moves (every man's move advances it): with a capture, the moves that
    reset the forty-move count."""
    return not kings >> move[0][0] & 1


def notation(move: Move) -> str:
    """Standard notation: ``11-15`` for a plain move, ``15x24x31`` for a jump chain."""
    sep = "x" if move[1] else "-"
    return sep.join(str(s + 1) for s in move[0])


def key(dark: int, light: int, kings: int, side: int) -> int:
    """One int for a position with its side to move (repetition and the search's table)."""
    return dark | light << 32 | kings << 64 | side << 96


def fen(dark: int, light: int, kings: int, side: int) -> str:
    """The position in PDN FEN, dark as B (the notation's "Black"): ``B:W21,...:B1,...``."""
    def pieces(mask: int) -> str:
        return ",".join(("K" if kings >> s & 1 else "") + str(s + 1) for s in bits(mask))
    return f"{'B' if side == DARK else 'W'}:W{pieces(light)}:B{pieces(dark)}"


def parse_fen(text: str) -> tuple[int, int, int, int]:
    """(dark, light, kings, side) from PDN FEN (``W:W18,K5:B1,2``); ValueError if malformed."""
    parts = text.strip().rstrip(".").split(":")
    if len(parts) != 3 or parts[0] not in ("B", "W"):
        raise ValueError(f"not a checkers FEN: {text!r}")
    dark = light = kings = 0
    for part in parts[1:]:
        colour, body = part[:1], part[1:]
        if colour not in ("B", "W"):
            raise ValueError(f"not a checkers FEN: {text!r}")
        for item in filter(None, body.split(",")):
            king = item.startswith("K")
            n = int(item[1:] if king else item)
            if not 1 <= n <= 32:
                raise ValueError(f"square {n} is off the board")
            b = 1 << (n - 1)
            if (dark | light) & b:
                raise ValueError(f"square {n} is given twice")
            if colour == "B":
                dark |= b
            else:
                light |= b
            if king:
                kings |= b
    return dark, light, kings, DARK if parts[0] == "B" else LIGHT
