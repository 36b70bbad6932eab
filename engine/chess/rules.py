"""Chess (FIDE Laws) on python-chess: the state machine, step entry, draws, offers, clocks.

python-chess (``chess`` on PyPI, GPL-3.0-or-later) generates the legal moves and judges
check, mate, stalemate, dead positions (``is_insufficient_material``), repetition (its move
stack, with en passant counted only when it is legal) and the move counters: it is exact on
every perft position, so this module only arranges it behind the rules interface. The board
in the state is never mutated: each move copies it and pushes.

Rules (docs/rules/chess.md states them in full): the starting position is a chance step
(``Setup``): the usual one, or a Chess960 position drawn from the seed (option ``chess960``,
or pinned with ``chess960_position``); a record may pin any valid FEN. White (seat 0) moves
first from the usual position. Automatic ends: checkmate, stalemate, a dead position
(insufficient material), fivefold repetition and 75 moves without a capture or a pawn move
(FIDE 9.6), unless the last move mates. Threefold repetition and fifty moves are claims of
the player to move, before their move or when one of their moves would make them (FIDE 9.2,
9.3); option ``draw_rules=auto_claim`` ends the game at once on them instead. Draw offers
(one per turn, then a move; the opponent accepts, declines, or declines by moving),
resignation on one's turn.

A move is entered in steps so the legal list stays a few dozen actions: ``Pick`` a piece,
``MoveTo`` a square, and for a promotion ``Promote`` to a piece. Each step is checked against
the position's complete legal moves.

Clocks (option ``clock``): the engine is pure and has no clock. The host measures time and
tells the engine with two actions only seat ``HOST`` (-1) may send, never in a legal list:
``Clock`` after each move (the time the mover used; the increment is added) and ``Flag``
when the seat to move has run out while thinking. No client can send them, since a
connection acts only for the seat it holds. A fallen flag loses, unless the opponent has no
mating material (python-chess ``has_insufficient_material``), which draws (FIDE 6.9).

This module owns legality and the outcome. It must never look at a view, do I/O, read the
clock, or use any generator but the ones given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import chess

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.chess.state import (
    AUTO_CLAIM,
    CLOCKS,
    FIDE,
    FIFTY_MOVES,
    HOST,
    NO_CLOCK,
    OVER,
    PLAY,
    PROMOTIONS,
    SETUP,
    THREEFOLD,
    AcceptDraw,
    ClaimDraw,
    Clock,
    DeclineDraw,
    Flag,
    LastMove,
    MoveTo,
    OfferDraw,
    Pick,
    Promote,
    Resign,
    Setup,
    State,
    Timing,
    clock_of,
)
from engine.chess.views import ChessView, build_view
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, Gesture, Presentation, Zone

RULES_VERSION = "1.0"

# Stable codes of this game's refusals (errors.py has the shared ones).
BAD_SQUARE = "bad_square"  # not a square a1-h8
NOT_YOURS = "not_yours"  # no piece of the mover's there
NOT_MOVABLE = "not_movable"  # that piece has no legal move
PICK_FIRST = "pick_first"  # a target before any piece is picked
BAD_TARGET = "bad_target"  # the picked piece cannot go there
ALREADY_PICKED = "already_picked"
PROMOTE_FIRST = "promote_first"  # a promotion awaits its piece
BAD_PIECE = "bad_piece"  # not q, r, b or n, or no promotion awaited
NO_CLAIM = "no_claim"  # no such draw claim is open now
NO_OFFER = "no_offer"  # no draw offer of the opponent stands
ALREADY_OFFERED = "already_offered"  # one offer per turn
NO_CLOCK_CODE = "no_clock"  # a clock step in an untimed game, or none owed
TIME_LEFT = "time_left"  # a flag while time remains

# Outcome reasons (message keys).
CHECKMATE = "chess.checkmate"
STALEMATE = "chess.stalemate"
INSUFFICIENT = "chess.insufficient_material"
FIVEFOLD = "chess.fivefold"
SEVENTYFIVE = "chess.seventyfive_moves"
THREEFOLD_AUTO = "chess.threefold"
FIFTY_AUTO = "chess.fifty_moves"
CLAIMED = {THREEFOLD: "chess.claimed_threefold", FIFTY_MOVES: "chess.claimed_fifty_moves"}
# Spelled out, so that a scan of the source finds every key a client must translate.
REASON_KEYS = {THREEFOLD: "chess.reason.threefold", FIFTY_MOVES: "chess.reason.fifty_moves"}
AGREED = "chess.agreed"
RESIGNED = "chess.resigned"
TIME = "chess.time"
TIME_DRAW = "chess.time_insufficient"

NAMES = tuple(chess.SQUARE_NAMES)
SQUARE_OF = {n: i for i, n in enumerate(NAMES)}
PICK = tuple(Pick(n) for n in NAMES)
MOVE_TO = tuple(MoveTo(n) for n in NAMES)
PROMOTE = tuple(Promote(p) for p in PROMOTIONS)
PIECE_OF = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
CLAIMS = {THREEFOLD: ClaimDraw(THREEFOLD), FIFTY_MOVES: ClaimDraw(FIFTY_MOVES)}
OFFER, ACCEPT, DECLINE, RESIGN = OfferDraw(), AcceptDraw(), DeclineDraw(), Resign()

# A threefold repetition needs eight reversible plies (a position, and twice back to it);
# with the move that would make it, seven. Below that python-chess's claim test, which plays
# every legal move, cannot succeed, so it is not asked (it is most of a move's cost).
CLAIM_PLIES = 7


def seat_of(color: chess.Color) -> int:
    return 0 if color == chess.WHITE else 1


def _square(action: Any) -> int:
    name = action.square
    if not isinstance(name, str) or name not in SQUARE_OF:
        raise IllegalAction(BAD_SQUARE, "squares are a1 to h8")
    return SQUARE_OF[name]


def _ms(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IllegalAction(errors.ILLEGAL_ACTION, "a time is a whole number of ms, 0 or more")
    return value


def win(seat: int, reason: str) -> Outcome:
    return Outcome((seat,), (1, 0) if seat == 0 else (0, 1), reason)


def draw(reason: str) -> Outcome:
    return Outcome((), (0, 0), reason, True)


def claims_of(board: chess.Board, draw_rules: str) -> tuple[str, ...]:
    """The claims open to the side to move (FIDE mode only): threefold and fifty moves, now
    or with one of its moves (python-chess tries each move)."""
    if draw_rules != FIDE:
        return ()
    out: list[str] = []
    if board.halfmove_clock >= CLAIM_PLIES and board.can_claim_threefold_repetition():
        out.append(THREEFOLD)
    if board.halfmove_clock >= 99 and board.can_claim_fifty_moves():
        out.append(FIFTY_MOVES)
    return tuple(out)


def ending(board: chess.Board, draw_rules: str) -> Outcome | None:
    """How the game ends in ``board``'s position, or None. Mate first: a mating move stands
    whatever the counters say (FIDE 9.6)."""
    if board.is_checkmate():
        return win(1 - seat_of(board.turn), CHECKMATE)
    if board.is_stalemate():
        return draw(STALEMATE)
    if board.is_insufficient_material():
        return draw(INSUFFICIENT)
    if board.halfmove_clock >= 8:  # a repetition needs reversible moves behind it
        if board.is_fivefold_repetition():
            return draw(FIVEFOLD)
        if draw_rules == AUTO_CLAIM and board.is_repetition(3):
            return draw(THREEFOLD_AUTO)
    if board.is_seventyfive_moves():
        return draw(SEVENTYFIVE)
    if draw_rules == AUTO_CLAIM and board.halfmove_clock >= 100:
        return draw(FIFTY_AUTO)
    return None


def lost_on_time(board: chess.Board, seat: int) -> Outcome:
    """``seat``'s flag has fallen: it loses, unless the opponent cannot mate (FIDE 6.9)."""
    winner = 1 - seat
    if board.has_insufficient_material(chess.WHITE if winner == 0 else chess.BLACK):
        return draw(TIME_DRAW)
    return win(winner, TIME)


def start_fen(position: int) -> str:
    """The FEN of Chess960 position ``position`` (Scharnagl numbering; 518 is the usual)."""
    return chess.Board.from_chess960_pos(position).fen()


class ChessGame(Game[State]):
    info = GameInfo(
        id="chess",
        title="Chess",
        players=(2,),
        default_players=2,
        rules_version=RULES_VERSION,
        summary="Chess by the FIDE Laws: castling, en passant, promotion, every draw rule, "
                "draw offers, resignation, optional clocks and Chess960.",
        teams="two sides: seat 0 white (moves first), seat 1 black",
        options=(
            Option("draw_rules", "choice", FIDE,
                   "threefold repetition and fifty moves are claimed by the player to move "
                   "(fide), or draw at once (auto_claim); fivefold and 75 moves always do",
                   choices=(FIDE, AUTO_CLAIM)),
            Option("clock", "choice", NO_CLOCK,
                   "time control, minutes per player + seconds added per move; a fallen "
                   "flag loses unless the opponent cannot mate", choices=CLOCKS),
            Option("chess960", "bool", False,
                   "Chess960 (Fischer random): the back ranks are one of 960 mirrored "
                   "set-ups drawn at random; castling is the king onto its rook"),
            Option("chess960_position", "int", None,
                   "with chess960: play this position (0-959, 518 is the usual one) "
                   "instead of drawing one", minimum=0, maximum=959, nullable=True),
        ),
        presentation=Presentation(
            family="grid_board",
            zones=(Zone("board", "grid", "board", rows=8, cols=8, labels="algebraic"),),
            # A square name is a tap on that square: tap the piece, then its target; the
            # promotion piece (and every other action) is a button.
            gestures=(Gesture(("square",), "cell", "board"),),
            seat_colours=("white", "black"),
        ),
    )
    action_types = (Pick, MoveTo, Promote, ClaimDraw, OfferDraw, AcceptDraw, DeclineDraw,
                    Resign, Clock, Flag)
    chance_types = (Setup,)

    # -- set-up ---------------------------------------------------------------------------
    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        if options.get("chess960_position") is not None and not options.get("chess960"):
            raise OptionError("chess960_position", "only with chess960=true", "unset")

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (0, 1)

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        control = str(options.get("clock", NO_CLOCK))
        timing = clock_of(control)
        position = options.get("chess960_position")
        return State(
            draw_rules=str(options.get("draw_rules", FIDE)), control=control,
            chess960=bool(options.get("chess960", False)),
            position=position if isinstance(position, int) else None, seed=seed,
            phase=SETUP, board=chess.Board(None), sans=(), picked=-1, target=-1, claims=(),
            offer=-1, offered=False, clocks=None if timing is None else (timing[0], timing[0]),
            clock_due=-1, last=None, result=None, termination="")

    # -- chance: the starting position (time comes from the host as actions) ---------------
    def chance_outcome(self, state: State) -> Setup | None:
        if state.phase != SETUP:
            return None
        if not state.chess960:
            return Setup(chess.STARTING_FEN)
        if state.position is not None:
            return Setup(start_fen(state.position))
        return Setup(start_fen(chance_rng(state.seed, 0).randrange(960)))

    def apply_chance(self, state: State, outcome: Any) -> State:
        if state.phase != SETUP:
            raise IllegalAction(errors.NO_CHANCE_PENDING, "the game has its position")
        fen = outcome.fen if isinstance(outcome, Setup) else None
        if not isinstance(fen, str):
            raise IllegalAction(errors.BAD_CHANCE, "a set-up is a position in FEN")
        if state.position is not None and fen != start_fen(state.position):
            raise IllegalAction(errors.BAD_CHANCE, "the table chose its Chess960 position")
        try:
            board = chess.Board(fen, chess960=state.chess960)
        except ValueError:
            raise IllegalAction(errors.BAD_CHANCE, "not a FEN position") from None
        if not board.is_valid():
            raise IllegalAction(errors.BAD_CHANCE, "not a position of a legal game")
        end = ending(board, state.draw_rules)
        nxt = state._replace(phase=PLAY, board=board,
                             claims=() if end else claims_of(board, state.draw_rules))
        return self._over(nxt, end, "normal") if end else nxt

    # -- play -----------------------------------------------------------------------------
    def side(self, state: State) -> int:
        return seat_of(state.board.turn)

    def to_act(self, state: State) -> tuple[int, ...]:
        return (self.side(state),) if state.phase == PLAY else ()

    def moves_from(self, state: State, square: int) -> list[chess.Move]:
        return list(state.board.generate_legal_moves(chess.BB_SQUARES[square]))

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if state.phase != PLAY or seat != self.side(state):
            return ()
        if state.target >= 0:
            return PROMOTE
        moves = list(state.board.generate_legal_moves())
        froms = sorted({m.from_square for m in moves})
        extra: list[Any] = [CLAIMS[c] for c in state.claims]
        if state.offer == 1 - seat:
            extra += [ACCEPT, DECLINE]
        elif not state.offered:
            extra.append(OFFER)
        extra.append(RESIGN)
        if state.picked < 0:
            return (*(PICK[s] for s in froms), *extra)
        tos = sorted({m.to_square for m in moves if m.from_square == state.picked})
        return (*(MOVE_TO[s] for s in tos), *(PICK[s] for s in froms if s != state.picked),
                *extra)

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.phase == OVER:
            raise IllegalAction(errors.GAME_OVER, "the game is over")
        if state.phase != PLAY:
            raise IllegalAction(errors.CHANCE_PENDING, "the position is set up first")
        if isinstance(action, (Clock, Flag)):
            if seat != HOST:
                raise IllegalAction(errors.ILLEGAL_ACTION, "only the host runs the clocks")
            if isinstance(action, Clock):
                return self._clock(state, _ms(action.used_ms))
            return self._flag(state, _ms(action.elapsed_ms))
        side = self.side(state)
        if seat != side:
            raise IllegalAction(errors.NOT_YOUR_TURN, f"seat {side} is to move")
        if state.target >= 0 and not isinstance(action, Promote):
            raise IllegalAction(PROMOTE_FIRST, "choose the promotion piece")
        if isinstance(action, Pick):
            return self._pick(state, _square(action))
        if isinstance(action, MoveTo):
            return self._move_to(state, _square(action))
        if isinstance(action, Promote):
            return self._promote(state, action.piece)
        if isinstance(action, ClaimDraw):
            if action.reason not in state.claims:
                raise IllegalAction(NO_CLAIM, "no such draw claim is open now")
            return self._over(state, draw(CLAIMED[action.reason]), "normal")
        if isinstance(action, OfferDraw):
            if state.offered or state.offer == 1 - seat:
                raise IllegalAction(ALREADY_OFFERED, "an offer stands already this turn")
            return state._replace(offer=seat, offered=True)
        if isinstance(action, (AcceptDraw, DeclineDraw)):
            if state.offer != 1 - seat:
                raise IllegalAction(NO_OFFER, "no draw offer stands")
            if isinstance(action, AcceptDraw):
                return self._over(state, draw(AGREED), "normal")
            return state._replace(offer=-1)
        if isinstance(action, Resign):
            return self._over(state, win(1 - seat, RESIGNED), "normal")
        raise IllegalAction(errors.ILLEGAL_ACTION, "pick, move, promote, claim, offer or resign")

    def _over(self, state: State, result: Outcome, termination: str) -> State:
        return state._replace(phase=OVER, picked=-1, target=-1, claims=(), offer=-1,
                              result=result, termination=termination)

    def _pick(self, state: State, s: int) -> State:
        if s == state.picked:
            raise IllegalAction(ALREADY_PICKED, f"the piece on {NAMES[s]} is picked: move it")
        piece = state.board.piece_at(s)
        if piece is None or piece.color != state.board.turn:
            raise IllegalAction(NOT_YOURS, f"no piece of yours on {NAMES[s]}")
        if not self.moves_from(state, s):
            raise IllegalAction(NOT_MOVABLE, f"the piece on {NAMES[s]} cannot move")
        return state._replace(picked=s)

    def _move_to(self, state: State, t: int) -> State:
        if state.picked < 0:
            raise IllegalAction(PICK_FIRST, "pick a piece first")
        fits = [m for m in self.moves_from(state, state.picked) if m.to_square == t]
        if not fits:
            raise IllegalAction(BAD_TARGET, f"that piece cannot go to {NAMES[t]}")
        if fits[0].promotion:
            return state._replace(target=t)
        return self._finish(state, fits[0])

    def _promote(self, state: State, piece: Any) -> State:
        if state.target < 0 or not isinstance(piece, str) or piece not in PIECE_OF:
            raise IllegalAction(BAD_PIECE, "promote to q, r, b or n when a pawn arrives")
        return self._finish(state, chess.Move(state.picked, state.target, PIECE_OF[piece]))

    def _finish(self, state: State, move: chess.Move) -> State:
        """The state after ``move``, a complete legal move of the side to move."""
        mover = self.side(state)
        board = state.board.copy()
        san = board.san(move)
        board.push(move)
        end = ending(board, state.draw_rules)
        # A move declines a standing offer of the opponent; the mover's own offer stands
        # for the opponent to answer.
        offer = mover if state.offer == mover else -1
        nxt = state._replace(
            board=board, sans=(*state.sans, san), picked=-1, target=-1,
            claims=() if end else claims_of(board, state.draw_rules), offer=offer,
            offered=False, clock_due=mover if state.clocks is not None else -1,
            last=LastMove(mover, move.uci(), san))
        if end:
            return self._over(nxt, end, "normal")
        return nxt

    def _clock(self, state: State, used: int) -> State:
        timing = clock_of(state.control)
        if state.clocks is None or timing is None or state.clock_due < 0:
            raise IllegalAction(NO_CLOCK_CODE, "no clock step is owed")
        seat = state.clock_due
        left = state.clocks[seat] - used
        clocks = list(state.clocks)
        clocks[seat] = left + timing[1] if left > 0 else 0
        nxt = state._replace(clocks=(clocks[0], clocks[1]), clock_due=-1)
        if left <= 0:
            return self._over(nxt, lost_on_time(state.board, seat), "time forfeit")
        return nxt

    def _flag(self, state: State, elapsed: int) -> State:
        if state.clocks is None:
            raise IllegalAction(NO_CLOCK_CODE, "the game is untimed")
        seat = self.side(state)
        if elapsed < state.clocks[seat]:
            raise IllegalAction(TIME_LEFT, "time remains on that clock")
        clocks = list(state.clocks)
        clocks[seat] = 0
        return self._over(state._replace(clocks=(clocks[0], clocks[1]), clock_due=-1),
                          lost_on_time(state.board, seat), "time forfeit")

    # -- clocks: what a host reads and sends to run them (hostd/tables/clocks.py) ---------
    clock_seat = HOST

    def clock(self, state: State) -> Timing | None:
        """The clocks of a timed game in play, None otherwise. The side to move's clock
        runs once the mover's ``Clock`` step is in."""
        if state.clocks is None or state.phase != PLAY:
            return None
        running = self.side(state) if state.clock_due < 0 else -1
        return Timing(state.clocks, running, state.clock_due)

    def clock_step(self, used_ms: int) -> Clock:
        return Clock(used_ms)

    def flag_step(self, elapsed_ms: int) -> Flag:
        return Flag(elapsed_ms)

    # -- reading --------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> ChessView:
        return build_view(self, state, seat)

    def common(self, view: ChessView) -> Common:
        captions: list[Caption] = []
        if view.check:
            captions.append(Caption("chess.check", (("square", view.check),)))
        if view.promoting:
            captions.append(Caption("chess.choose_promotion", (("square", view.promoting),)))
        if view.offer is not None:
            captions.append(Caption("chess.draw_offered", (("seat", view.offer),)))
        for c in view.claims:
            captions.append(Caption("chess.claim_open", (("reason", REASON_KEYS[c]),)))
        if view.chess960 is not None:
            captions.append(Caption("chess.chess960", (("n", view.chess960),)))
        last = view.last
        return Common(
            seat=view.seat, to_act=view.to_act, hand=(), hand_counts=(), teams=(0, 1),
            scores=view.material, phase=view.phase,
            last=Caption("chess.last_move", (("seat", last.seat), ("move", last.san)))
            if last else None,
            captions=tuple(captions))

    def outcome(self, state: State) -> Outcome | None:
        return state.result

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Nothing is hidden but the seed (which draws a Chess960 position): the same game
        with another seed."""
        return state._replace(seed=rng.getrandbits(62))


GAME = ChessGame()
