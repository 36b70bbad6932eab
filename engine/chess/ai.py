"""Chess's computer players: random, easy, normal and hard, on our own search or Stockfish.

A player sees what a remote client sees: the seat's view (the start position and every move
since, from which it rebuilds the board and so judges repetition) and its legal actions, plus
the generator the host seeds. It never touches the state. It decides a whole move and answers
the step asked for: the pick of its chosen move's piece, then the target, then the promotion
piece. The move chosen at the pick is remembered (by the position), so the later steps of
the same move cost nothing; a player that takes over a half-entered move, or whose memo is
in another process, searches that piece's moves only. Our search is bounded by counting
nodes, never by the clock, so its decisions are reproducible from the view and generator.

Our own search (always there):

- random: any legal move, uniformly (it accepts draw offers, and offers one now and then
  after ply 60, so two random players end in about 100 plies).
- easy (a beginner who hangs pieces now and then): each move scored one ply deep by material
  and a pinch of position, plus noise of about a pawn; one time in six any legal move.
- normal: alpha-beta two plies deep with captures searched to the end (quiescence),
  material and piece-square tables (the "simplified evaluation function").
- hard: iterative deepening alpha-beta under a node budget with a transposition table,
  ordering by the table's move, captures (most valuable victim first) and killers;
  reaching a position of the game again counts as a draw.

With Stockfish (``use_backend``, called by a host's AI worker that found one): normal and
hard ask it for the move under the settings of ``uci.LEVELS``; easy stays ours. When the
engine fails to answer a legal move, the level's own search decides instead, so a table
never waits on a broken engine.

Draw offers are accepted when the player judges itself worse by more than a margin (easy
never accepts, random always does); claims are made when the player is not better; offers
are otherwise declined by moving. Only random offers draws; none resigns.

This module must never import the rules' state machine, do I/O, start a process, read the
clock, or use the global random generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import chess

from engine.chess.state import AcceptDraw, ClaimDraw, MoveTo, OfferDraw, Pick, Promote
from engine.chess.uci import LEVELS, UciBackend, UciSettings
from engine.chess.views import ChessView

MATE = 100_000
VALUE = (0, 100, 320, 330, 500, 900, 0)  # by python-chess piece type (1 pawn .. 6 king)

# Piece-square tables, white's view, a8 first (as printed); black mirrors.
_PST_TEXT = {
    chess.PAWN: """0 0 0 0 0 0 0 0 50 50 50 50 50 50 50 50 10 10 20 30 30 20 10 10
        5 5 10 25 25 10 5 5 0 0 0 20 20 0 0 0 5 -5 -10 0 0 -10 -5 5
        5 10 10 -20 -20 10 10 5 0 0 0 0 0 0 0 0""",
    chess.KNIGHT: """-50 -40 -30 -30 -30 -30 -40 -50 -40 -20 0 0 0 0 -20 -40
        -30 0 10 15 15 10 0 -30 -30 5 15 20 20 15 5 -30 -30 0 15 20 20 15 0 -30
        -30 5 10 15 15 10 5 -30 -40 -20 0 5 5 0 -20 -40 -50 -40 -30 -30 -30 -30 -40 -50""",
    chess.BISHOP: """-20 -10 -10 -10 -10 -10 -10 -20 -10 0 0 0 0 0 0 -10
        -10 0 5 10 10 5 0 -10 -10 5 5 10 10 5 5 -10 -10 0 10 10 10 10 0 -10
        -10 10 10 10 10 10 10 -10 -10 5 0 0 0 0 5 -10 -20 -10 -10 -10 -10 -10 -10 -20""",
    chess.ROOK: """0 0 0 0 0 0 0 0 5 10 10 10 10 10 10 5 -5 0 0 0 0 0 0 -5
        -5 0 0 0 0 0 0 -5 -5 0 0 0 0 0 0 -5 -5 0 0 0 0 0 0 -5 -5 0 0 0 0 0 0 -5
        0 0 0 5 5 0 0 0""",
    chess.QUEEN: """-20 -10 -10 -5 -5 -10 -10 -20 -10 0 0 0 0 0 0 -10 -10 0 5 5 5 5 0 -10
        -5 0 5 5 5 5 0 -5 0 0 5 5 5 5 0 -5 -10 5 5 5 5 5 0 -10 -10 0 5 0 0 0 0 -10
        -20 -10 -10 -5 -5 -10 -10 -20""",
    chess.KING: """-30 -40 -40 -50 -50 -40 -40 -30 -30 -40 -40 -50 -50 -40 -40 -30
        -30 -40 -40 -50 -50 -40 -40 -30 -30 -40 -40 -50 -50 -40 -40 -30
        -20 -30 -30 -40 -40 -30 -30 -20 -10 -20 -20 -20 -20 -20 -20 -10
        20 20 0 0 0 0 20 20 20 30 10 0 0 10 30 20""",
}
KING_END = """-50 -40 -30 -20 -20 -30 -40 -50 -30 -20 -10 0 0 -10 -20 -30
    -30 -10 20 30 30 20 -10 -30 -30 -10 30 40 40 30 -10 -30 -30 -10 30 40 40 30 -10 -30
    -30 -10 20 30 30 20 -10 -30 -30 -30 0 0 0 0 -30 -30 -50 -30 -30 -30 -30 -30 -30 -50"""


def _table(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(white, black) values by python-chess square index (a1 = 0)."""
    cells = [int(x) for x in text.split()]
    white = tuple(cells[(7 - sq // 8) * 8 + sq % 8] for sq in range(64))
    black = tuple(white[sq ^ 56] for sq in range(64))
    return white, black


PST = {pt: _table(t) for pt, t in _PST_TEXT.items()}
PST_KING_END = _table(KING_END)


def material(board: chess.Board) -> int:
    """Material for the side to move, in centipawns."""
    score = 0
    for pt in range(1, 6):
        score += VALUE[pt] * (chess.popcount(board.pieces_mask(pt, chess.WHITE))
                              - chess.popcount(board.pieces_mask(pt, chess.BLACK)))
    return score if board.turn == chess.WHITE else -score


def evaluate(board: chess.Board) -> int:
    """Material and piece-square tables for the side to move (the king's table changes when
    the queens are off or little is left)."""
    score = 0
    heavy = chess.popcount(board.queens) * 900 + chess.popcount(board.rooks) * 500 + \
        chess.popcount(board.knights | board.bishops) * 320
    endgame = heavy <= 1300
    for colour, sign, idx in ((chess.WHITE, 1, 0), (chess.BLACK, -1, 1)):
        own = board.occupied_co[colour]
        for pt in range(1, 7):
            table = (PST_KING_END if pt == chess.KING and endgame else PST[pt])[idx]
            mask = board.pieces_mask(pt, colour) & own
            s = 0
            for sq in chess.scan_forward(mask):
                s += table[sq]
            score += sign * (s + VALUE[pt] * chess.popcount(mask))
    return score if board.turn == chess.WHITE else -score


class _OutOfNodes(Exception):
    """The node budget is spent: the search unwinds and the last full iteration stands."""


class Search:
    """Negamax alpha-beta with quiescence, a transposition table and killer moves."""

    def __init__(self, nodes: int, *, seen: frozenset[Any] = frozenset(),
                 table: bool = True) -> None:
        self.budget = nodes
        self.nodes = 0
        self.seen = seen  # positions of the game so far: reaching one again is a draw
        self.tt: dict[Any, tuple[int, int, int, chess.Move | None]] | None = \
            {} if table else None
        self.killers: dict[int, list[chess.Move]] = {}

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfNodes

    def order(self, board: chess.Board, moves: list[chess.Move], best: chess.Move | None,
              ply: int) -> list[chess.Move]:
        killers = self.killers.get(ply, ())

        def rank(m: chess.Move) -> int:
            if m == best:
                return -1_000_000
            r = 0
            if board.is_capture(m):
                victim = board.piece_type_at(m.to_square) or chess.PAWN
                attacker = board.piece_type_at(m.from_square) or chess.PAWN
                r -= 10_000 + VALUE[victim] * 10 - VALUE[attacker]
            elif m in killers:
                r -= 5000
            if m.promotion:
                r -= 20_000 + VALUE[m.promotion]
            return r

        return sorted(moves, key=rank)

    def quiesce(self, board: chess.Board, alpha: int, beta: int, depth: int = 0) -> int:
        self._count()
        stand = evaluate(board)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        if depth > 6:
            return stand
        caps = [m for m in board.generate_legal_captures()]
        for m in self.order(board, caps, None, 99):
            board.push(m)
            v = -self.quiesce(board, -beta, -alpha, depth + 1)
            board.pop()
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return alpha

    def negamax(self, board: chess.Board, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._count()
        if ply and (board.is_repetition(2) or board._transposition_key() in self.seen
                    or board.halfmove_clock >= 100):
            return 0
        moves = list(board.legal_moves)
        if not moves:
            return -MATE + ply if board.is_check() else 0
        if board.is_insufficient_material():
            return 0
        if depth <= 0:
            return self.quiesce(board, alpha, beta)
        key = board._transposition_key() if self.tt is not None else None
        best_move = None
        if self.tt is not None:
            hit = self.tt.get(key)
            if hit is not None:
                d, v, flag, best_move = hit
                if d >= depth and (flag == 0 or (flag < 0 and v <= alpha)
                                   or (flag > 0 and v >= beta)):
                    return v
        a0 = alpha
        best = -MATE - 1
        for m in self.order(board, moves, best_move, ply):
            board.push(m)
            v = -self.negamax(board, depth - 1, -beta, -alpha, ply + 1)
            board.pop()
            if v > best:
                best, best_move = v, m
            if v > alpha:
                alpha = v
            if alpha >= beta:
                if not board.is_capture(m):
                    ks = self.killers.setdefault(ply, [])
                    if m not in ks:
                        ks.insert(0, m)
                        del ks[2:]
                break
        if self.tt is not None:
            flag = -1 if best <= a0 else 1 if best >= beta else 0
            self.tt[key] = (depth, best, flag, best_move)
        return best

    def root(self, board: chess.Board, moves: list[chess.Move], depth: int,
             first: chess.Move | None = None) -> tuple[chess.Move, int]:
        best_move, best = moves[0], -MATE - 1
        alpha = -MATE - 1
        for m in self.order(board, moves, first, 0):
            board.push(m)
            v = -self.negamax(board, depth - 1, -MATE - 1, -alpha, 1)
            board.pop()
            if v > best:
                best, best_move = v, m
                alpha = max(alpha, v)
        return best_move, best


T = TypeVar("T")


def searched(board: chess.Board, run: Callable[..., T], *args: Any) -> T | None:
    """``run(board, *args)``'s answer, or None when the node budget ran out; either way
    ``board`` is left as it was (a search cut short unwinds with its moves still pushed)."""
    depth = len(board.move_stack)
    try:
        return run(board, *args)
    except _OutOfNodes:
        while len(board.move_stack) > depth:
            board.pop()
        return None


def board_of(view: ChessView) -> chess.Board:
    board = chess.Board(view.start_fen, chess960=view.variant == "chess960")
    for uci in view.moves:
        board.push(chess.Move.from_uci(uci))
    return board


def seen_keys(board: chess.Board) -> frozenset[Any]:
    """The positions of the game since the last irreversible move (each a repetition)."""
    b = board.copy()
    out = set()
    while b.move_stack:
        m = b.pop()
        if b.is_irreversible(m):
            break
        out.add(b._transposition_key())
    return frozenset(out)


def step_for(view: ChessView, move: chess.Move) -> Any:
    """The step of ``move`` that the view asks for now."""
    if view.promoting:
        return Promote(chess.piece_symbol(move.promotion or chess.QUEEN))
    frm = chess.square_name(move.from_square)
    if view.picked == frm:
        return MoveTo(chess.square_name(move.to_square))
    return Pick(frm)


def judge(board: chess.Board) -> int:
    """A quick worth of the position for the side to move (material and position, captures
    played out): what offers and claims are weighed by."""
    value = searched(board, Search(2000, table=False).quiesce, -MATE - 1, MATE + 1)
    return evaluate(board) if value is None else value


MEMO_SIZE = 256


class _Player:
    level = "?"
    accept_margin: int | None = 150  # accept a draw when worse than this (centipawns)

    def __init__(self) -> None:
        # The move chosen at the pick, by position: (start FEN, moves so far) -> UCI.
        self._memo: dict[tuple[str, tuple[str, ...]], str] = {}

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        board = board_of(view)
        if not view.promoting and not view.picked and self.accept_margin is not None:
            accept = AcceptDraw() in legal
            claims = [a for a in legal if isinstance(a, ClaimDraw)]
            if accept or claims:
                value = judge(board)
                if accept and value < -self.accept_margin:
                    return AcceptDraw()
                if claims and value <= 0:
                    return claims[0]
        return step_for(view, self.move(view, board, rng))

    def move(self, view: ChessView, board: chess.Board, rng: random.Random) -> chess.Move:
        """The whole move this player makes now (from the memo when it chose it already)."""
        key = (view.start_fen, view.moves)
        moves = list(board.legal_moves)
        if view.picked:
            known = self._memo.get(key)
            if known is not None:
                m = chess.Move.from_uci(known)
                if (chess.square_name(m.from_square) == view.picked and m in moves
                        and (not view.promoting
                             or chess.square_name(m.to_square) == view.promoting)):
                    return m
            # Only the picked piece's moves (to the promotion square, if one awaits).
            moves = [m for m in moves if chess.square_name(m.from_square) == view.picked
                     and (not view.promoting
                          or chess.square_name(m.to_square) == view.promoting)]
        rng.shuffle(moves)
        move = self.decide(board, moves, rng) if len(moves) > 1 else moves[0]
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        self._memo[key] = move.uci()
        return move

    def decide(self, board: chess.Board, moves: list[chess.Move],
               rng: random.Random) -> chess.Move:
        raise NotImplementedError


class EasyPlayer(_Player):
    level = "easy"
    accept_margin = None

    def __init__(self, blunder: float = 1 / 6, noise: int = 120) -> None:
        super().__init__()
        self.blunder = blunder
        self.noise = noise

    def decide(self, board: chess.Board, moves: list[chess.Move],
               rng: random.Random) -> chess.Move:
        if rng.random() < self.blunder:
            return moves[0]
        best, best_v = moves[0], -MATE * 2
        for m in moves:
            board.push(m)
            if board.is_checkmate():
                v = MATE
            else:
                v = -evaluate(board) + rng.randint(-self.noise, self.noise)
            board.pop()
            if v > best_v:
                best, best_v = m, v
        return best


class NormalPlayer(_Player):
    level = "normal"

    def __init__(self, depth: int = 2, nodes: int = 6000) -> None:
        super().__init__()
        self.depth = depth
        self.nodes = nodes

    def decide(self, board: chess.Board, moves: list[chess.Move],
               rng: random.Random) -> chess.Move:
        seen = seen_keys(board)
        for depth in (self.depth, 1):
            found = searched(board, Search(self.nodes, seen=seen, table=False).root, moves,
                             depth)
            if found is not None:
                return found[0]
        return moves[0]


class HardPlayer(_Player):
    level = "hard"

    def __init__(self, nodes: int = 8_000, max_depth: int = 6) -> None:
        super().__init__()
        self.nodes = nodes
        self.max_depth = max_depth

    def decide(self, board: chess.Board, moves: list[chess.Move],
               rng: random.Random) -> chess.Move:
        s = Search(self.nodes, seen=seen_keys(board))
        best = moves[0]
        for depth in range(1, self.max_depth + 1):
            first = best if depth > 1 else None
            found = searched(board, s.root, moves, depth, first)
            if found is None:
                break
            best, value = found
            if abs(value) >= MATE - 100:
                break
        return best


class EnginePlayer(_Player):
    """A level played by an external UCI engine, with our own player as its fallback."""

    def __init__(self, level: str, backend: UciBackend, settings: UciSettings,
                 fallback: _Player) -> None:
        super().__init__()
        self.level = level
        self.backend = backend
        self.settings = settings
        self.fallback = fallback
        self.accept_margin = fallback.accept_margin
        self.view: ChessView | None = None

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        self.view = view  # decide() needs the position as the engine is told it
        return super().choose(view, legal, rng)

    def decide(self, board: chess.Board, moves: list[chess.Move],
               rng: random.Random) -> chess.Move:
        view = self.view
        answer = None
        if view is not None:
            try:
                answer = self.backend.bestmove(view.start_fen, view.moves, self.settings,
                                               view.variant == "chess960")
            except Exception:  # a dead engine must never stop a table
                answer = None
        if answer is not None:
            try:
                move = chess.Move.from_uci(answer)
            except ValueError:
                move = None
            if move is not None and move in moves:
                return move
        return self.fallback.decide(board, moves, rng)


class RandomMover(_Player):
    """Any legal move, uniformly; never a claim or resignation (a random player that
    resigned at random would end most games on its second move). It accepts every draw
    offer, and from ply ``OFFER_FROM`` offers one now and then (one turn in ``OFFER_ODDS``),
    which the other levels decline unless they are worse: two random players agree a draw
    after about 100 plies instead of wandering to the 75-move rule (about 350 plies, most of
    a test's time at a table of random players)."""

    level = "random"
    accept_margin = None
    OFFER_FROM = 60
    OFFER_ODDS = 20

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if not view.promoting and not view.picked:
            if AcceptDraw() in legal:
                return AcceptDraw()
            if (len(view.moves) >= self.OFFER_FROM and OfferDraw() in legal
                    and rng.randrange(self.OFFER_ODDS) == 0):
                return OfferDraw()
        return super().choose(view, legal, rng)

    def decide(self, board: chess.Board, moves: list[chess.Move],
               rng: random.Random) -> chess.Move:
        return moves[0]  # already shuffled by the generator


OWN: dict[str, Any] = {
    "random": RandomMover(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}
PLAYERS: dict[str, Any] = dict(OWN)


def players(backend: UciBackend | None) -> dict[str, Any]:
    """The levels with ``backend`` behind those ``uci.LEVELS`` names, or all our own."""
    out = dict(OWN)
    if backend is not None:
        for level, settings in LEVELS.items():
            out[level] = EnginePlayer(level, backend, settings, OWN[level])
    return out


def use_backend(backend: UciBackend | None) -> str:
    """Put ``backend`` (or, with None, our own search) behind this process's levels, in
    place, so the registry's next look-up sees it. A host's AI worker calls it once at
    start, after looking for Stockfish; it returns which is in use ("stockfish" or "own"),
    for ``tablebox doctor`` to report."""
    PLAYERS.clear()
    PLAYERS.update(players(backend))
    return "stockfish" if backend is not None else "own"
