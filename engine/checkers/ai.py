"""Checkers' computer players: random, easy, normal and hard.

A player sees what a remote client sees: the seat's view (the board as PDN FEN, the move
being entered, the positions since the last man's move or capture, the draw counts) and its
legal actions, plus the generator the host seeds. It never touches the state. It decides a
whole move and answers the step asked for: at the pick, the piece of its chosen move; then
each landing of the best move that continues the path entered so far (so a player that
takes over a half-entered move finishes it). Work is bounded by counting search nodes,
never by the clock, so a decision is reproducible from the view and the generator.

- easy (a beginner): one time in four any legal move; otherwise the best by material two
  moves deep (captures are compulsory, so it takes when it must and sees a piece hang).
- normal (a club beginner): alpha-beta four moves deep, captures searched to the end,
  material and the men's advancement.
- hard: iterative deepening alpha-beta under a node budget with a transposition table,
  move ordering (the table's move, then captures, crowning, and a history table), forced
  moves not counted as depth, repetition and the forty-move rule seen as draws, and an
  evaluation that adds the back rank, the centre, and in the ending, trading down and
  closing in on the weaker side when ahead.

Ties between moves of equal worth are broken by the generator (the root is shuffled before
ordering), so different seeds play different games.

This module must never import the rules' state, do I/O, read the clock, or use the global
random generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.checkers import board as bd
from engine.checkers.state import FORTY, ClaimDraw, MoveTo, Pick
from engine.checkers.views import CheckersView

WIN = 1_000_000
MAN, KING = 100, 135
MAX_PLY = 96

Eval = Callable[[int, int, int, int], int]  # (own, opp, kings, side) -> score for the mover


# -- evaluation -----------------------------------------------------------------------------
def _weight_masks(weight: Callable[[int], int]) -> tuple[int, int, int]:
    """Masks m1, m2, m4 with sum(weight(s)) over a set == |s&m1| + 2|s&m2| + 4|s&m4|."""
    out = [0, 0, 0]
    for s in range(32):
        w = weight(s)
        for i in range(3):
            if w >> i & 1:
                out[i] |= 1 << s
    return out[0], out[1], out[2]


# How far each side's men have come: rows advanced (dark moves down the rows, light up).
ADVANCE = (_weight_masks(lambda s: s // 4), _weight_masks(lambda s: 7 - s // 4))
BACK_ROW = (bd.ROWS[0], bd.ROWS[7])  # the home row each side's men guard against crowning
CENTRE = sum(1 << s for s in (9, 10, 13, 14, 17, 18, 21, 22))  # squares 10-11, 14-15, ...
DOUBLE_CORNERS = sum(1 << s for s in (0, 4, 27, 31))  # 1, 5, 28, 32: where a lone king hides
DIST = tuple(tuple(max(abs(bd.grid_of(a)[0] - bd.grid_of(b)[0]),
                       abs(bd.grid_of(a)[1] - bd.grid_of(b)[1])) for b in range(32))
             for a in range(32))


def _weighted(mask: int, w: tuple[int, int, int]) -> int:
    return (mask & w[0]).bit_count() + 2 * (mask & w[1]).bit_count() + 4 * (mask & w[2]).bit_count()


def material(own: int, opp: int, kings: int, side: int) -> int:
    ok, pk = own & kings, opp & kings
    return (MAN * ((own ^ ok).bit_count() - (opp ^ pk).bit_count())
            + KING * (ok.bit_count() - pk.bit_count()))


def positional(own: int, opp: int, kings: int, side: int) -> int:
    """Material and the men's advancement (the normal player's evaluation)."""
    men_o, men_p = own & ~kings, opp & ~kings
    return (material(own, opp, kings, side)
            + 3 * (_weighted(men_o, ADVANCE[side]) - _weighted(men_p, ADVANCE[1 - side])))


def strong(own: int, opp: int, kings: int, side: int) -> int:
    """The hard player's evaluation: positional, the back rank, the centre, and the ending."""
    score = positional(own, opp, kings, side)
    men_o, men_p = own & ~kings, opp & ~kings
    n_own, n_opp = own.bit_count(), opp.bit_count()
    total = n_own + n_opp
    if total > 10:
        # Men at home stop crowning; the centre is where the middle game is won.
        score += 6 * ((men_o & BACK_ROW[side]).bit_count()
                      - (men_p & BACK_ROW[1 - side]).bit_count())
        score += 4 * ((own & CENTRE).bit_count() - (opp & CENTRE).bit_count())
        return score
    mat = material(own, opp, kings, side)
    if mat == 0:
        return score
    # The ending: the stronger side trades down and brings its kings to the weaker pieces;
    # the weaker side's king in a double corner is where it holds out longest.
    sign = 1 if mat > 0 else -1
    strong_side, weak_side = (own, opp) if sign > 0 else (opp, own)
    score += sign * 8 * (24 - total)
    near = 0
    weak = list(bd.bits(weak_side))
    for s in bd.bits(strong_side & kings):
        near += min(DIST[s][t] for t in weak) if weak else 0
    score -= sign * 4 * near
    score -= sign * 10 * (weak_side & kings & DOUBLE_CORNERS).bit_count()
    return score


# -- search ---------------------------------------------------------------------------------
class _OutOfNodes(Exception):
    pass


EXACT, LOWER, UPPER = 0, 1, 2


def _board_key(own: int, opp: int, kings: int, side: int) -> int:
    return bd.key(own, opp, kings, side) if side == bd.DARK else bd.key(opp, own, kings, side)


class Search:
    """One decision's search. ``seen`` are the game's positions since the last man's move or
    capture (a move back to one of them is scored as a draw, which is what repeating it
    leads to); ``quiet`` the single moves already made without progress."""

    def __init__(self, evaluate: Eval, nodes: int, *, seen: frozenset[int] = frozenset(),
                 quiet: int = 0, table: bool = True, history: bool = True) -> None:
        self.evaluate = evaluate
        self.limit = nodes
        self.nodes = 0
        self.seen = seen
        self.quiet0 = quiet
        self.tt: dict[int, tuple[int, int, int, tuple[int, ...] | None]] | None = (
            {} if table else None)
        self.hist: dict[tuple[int, int], int] | None = {} if history else None
        self.path: list[int] = []

    def order(self, ms: list[bd.Move], kings: int, side: int,
              first: tuple[int, ...] | None) -> list[bd.Move]:
        hist = self.hist
        crown = bd.CROWN[side]

        def rank(m: bd.Move) -> int:
            if first is not None and m[0] == first:
                return -10**9
            path, cap = m
            r = -1000 * cap.bit_count()
            if not kings >> path[0] & 1 and (1 << path[-1]) & crown:
                r -= 500
            if hist is not None:
                r -= hist.get((path[0], path[-1]), 0)
            return r
        return sorted(ms, key=rank)

    def negamax(self, own: int, opp: int, kings: int, side: int, depth: int, alpha: int,
                beta: int, ply: int, quiet: int) -> int:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfNodes
        k = _board_key(own, opp, kings, side)
        if k in self.seen or k in self.path:
            return 0
        if quiet >= FORTY:
            return 0
        ms = bd.moves(own, opp, kings, side)
        if not ms:
            return ply - WIN
        if ply >= MAX_PLY:
            return self.evaluate(own, opp, kings, side)
        forced = len(ms) == 1
        capture = ms[0][1] != 0
        if depth <= 0 and not capture:
            return self.evaluate(own, opp, kings, side)
        tt = self.tt
        first = None
        if tt is not None:
            hit = tt.get(k)
            if hit is not None:
                d, v, flag, first = hit
                if d >= depth:
                    if v > WIN - 1000:
                        v -= ply
                    elif v < 1000 - WIN:
                        v += ply
                    if flag == EXACT or (flag == LOWER and v >= beta) or \
                            (flag == UPPER and v <= alpha):
                        return v
        # A forced move (one legal move, or a capture at the horizon) costs no depth.
        next_depth = depth if (forced or (depth <= 0 and capture)) else depth - 1
        a0 = alpha
        best, best_path = -WIN, None
        self.path.append(k)
        try:
            for m in (self.order(ms, kings, side, first) if len(ms) > 1 else ms):
                o, p, kk = bd.make(own, opp, kings, side, m)
                q = 0 if (m[1] or not kings >> m[0][0] & 1) else quiet + 1
                v = -self.negamax(p, o, kk, 1 - side, next_depth, -beta, -alpha, ply + 1, q)
                if v > best:
                    best, best_path = v, m[0]
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            if self.hist is not None and not m[1]:
                                hk = (m[0][0], m[0][-1])
                                self.hist[hk] = self.hist.get(hk, 0) + depth * depth
                            break
        finally:
            self.path.pop()
        if tt is not None:
            flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
            stored = best + ply if best > WIN - 1000 else best - ply if best < 1000 - WIN else best
            tt[k] = (depth, stored, flag, best_path)
        return best

    def root(self, own: int, opp: int, kings: int, side: int, ms: list[bd.Move], depth: int,
             rng: random.Random | None, best_first: tuple[int, ...] | None = None,
             ) -> tuple[bd.Move, int, bool]:
        """The best of ``ms`` ``depth`` moves deep: (move, score, complete). Out of nodes,
        the best found so far in this iteration (the previous best is searched first)."""
        order = list(ms)
        if rng is not None:
            rng.shuffle(order)
        order = self.order(order, kings, side, best_first)
        alpha = -WIN - 1
        best: tuple[bd.Move, int] | None = None
        self.path = [_board_key(own, opp, kings, side)]
        try:
            for m in order:
                o, p, kk = bd.make(own, opp, kings, side, m)
                q = 0 if (m[1] or not kings >> m[0][0] & 1) else self.quiet0 + 1
                v = -self.negamax(p, o, kk, 1 - side, depth - 1, -WIN - 1, -alpha, 1, q)
                if best is None or v > best[1]:
                    best = (m, v)
                    alpha = max(alpha, v)
        except _OutOfNodes:
            if best is None:
                raise
            return best[0], best[1], False
        finally:
            self.path = []
        assert best is not None
        return best[0], best[1], True


def iterative(own: int, opp: int, kings: int, side: int, ms: list[bd.Move], search: Search,
              rng: random.Random, max_depth: int) -> tuple[bd.Move, int]:
    """Deepen one move at a time until the node budget runs out or ``max_depth``."""
    best: tuple[bd.Move, int] | None = None
    for depth in range(1, max_depth + 1):
        try:
            m, v, _done = search.root(own, opp, kings, side, ms, depth, rng,
                                      best[0][0] if best else None)
        except _OutOfNodes:
            break
        best = (m, v)
        if abs(v) > WIN - 1000:  # a forced win or loss found: deeper changes nothing
            break
        if search.nodes >= search.limit:
            break
    if best is None:  # the budget ran out before depth 1: any move (never with a sane budget)
        return ms[0], 0
    return best


# -- players --------------------------------------------------------------------------------
def position(view: CheckersView) -> tuple[int, int, int, int]:
    return bd.parse_fen(view.fen)


def candidates(view: CheckersView) -> list[bd.Move]:
    """The complete legal moves that continue the move entered so far."""
    dark, light, kings, side = position(view)
    own, opp = (dark, light) if side == bd.DARK else (light, dark)
    ms = bd.moves(own, opp, kings, side)
    if not view.picked:
        return ms
    prefix = (view.picked - 1, *(s - 1 for s in view.path))
    return [m for m in ms if m[0][:len(prefix)] == prefix]


def step_for(view: CheckersView, move: bd.Move, legal: Sequence[Any]) -> Any:
    """The action that enters the next step of ``move``."""
    if not view.picked:
        action: Any = Pick(move[0][0] + 1)
    else:
        action = MoveTo(move[0][1 + len(view.path)] + 1)
    return action if action in legal else legal[0]


class _Player:
    level = ""
    claim_margin = 0  # claim a draw unless the search thinks it is ahead by more than this

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        dark, light, kings, side = position(view)
        own, opp = (dark, light) if side == bd.DARK else (light, dark)
        ms = candidates(view)
        if not ms:  # not reached: the legal list has steps only when moves exist
            return legal[0]
        move, score = self.decide(view, own, opp, kings, side, ms, rng)
        claims = [a for a in legal if isinstance(a, ClaimDraw)]
        if claims and score <= self.claim_margin:
            return claims[0]
        return step_for(view, move, legal)

    def decide(self, view: CheckersView, own: int, opp: int, kings: int, side: int,
               ms: list[bd.Move], rng: random.Random) -> tuple[bd.Move, int]:
        raise NotImplementedError


def _seen(view: CheckersView) -> frozenset[int]:
    return frozenset(bd.key(*bd.parse_fen(f)) for f in view.history)


class EasyPlayer(_Player):
    level = "easy"

    def __init__(self, blunder: float = 0.25, depth: int = 2) -> None:
        self.blunder = blunder
        self.depth = depth

    def decide(self, view: CheckersView, own: int, opp: int, kings: int, side: int,
               ms: list[bd.Move], rng: random.Random) -> tuple[bd.Move, int]:
        if len(ms) == 1:
            return ms[0], material(own, opp, kings, side)
        if rng.random() < self.blunder:
            return ms[rng.randrange(len(ms))], material(own, opp, kings, side)
        s = Search(material, 50_000, table=False, history=False)
        m, v, _ = s.root(own, opp, kings, side, ms, self.depth, rng)
        return m, v


class NormalPlayer(_Player):
    level = "normal"

    def __init__(self, depth: int = 4, nodes: int = 60_000) -> None:
        self.depth = depth
        self.nodes = nodes

    def decide(self, view: CheckersView, own: int, opp: int, kings: int, side: int,
               ms: list[bd.Move], rng: random.Random) -> tuple[bd.Move, int]:
        s = Search(positional, self.nodes, seen=_seen(view), quiet=view.quiet_moves)
        try:
            m, v, _ = s.root(own, opp, kings, side, ms, self.depth, rng)
        except _OutOfNodes:
            return ms[0], 0
        return m, v


class HardPlayer(_Player):
    level = "hard"
    claim_margin = 30

    def __init__(self, nodes: int = 25_000, max_depth: int = 40) -> None:
        self.nodes = nodes
        self.max_depth = max_depth

    def decide(self, view: CheckersView, own: int, opp: int, kings: int, side: int,
               ms: list[bd.Move], rng: random.Random) -> tuple[bd.Move, int]:
        if len(ms) == 1:
            return ms[0], strong(own, opp, kings, side)
        budget = self.nodes
        if view.picked:
            # Choosing among the picked piece's moves only: the work in proportion to the
            # root moves left (the pick's search already weighed them against the rest).
            every = len(bd.moves(own, opp, kings, side))
            budget = max(self.nodes // 4, self.nodes * len(ms) // every)
        s = Search(strong, budget, seen=_seen(view), quiet=view.quiet_moves)
        return iterative(own, opp, kings, side, ms, s, rng, self.max_depth)


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}
