"""Checkers (English draughts, WCDF rules): the state machine, step entry, and the draw rules.

Rules (docs/rules/checkers.md states them in full): 8x8, dark (seat 0) moves first; men move
and jump diagonally forward, kings both ways, one square at a time; capturing is compulsory
with a free choice among the captures, and a jump chain is finished to its end; a man that
reaches the king row is crowned and the move ends. A player with no legal move (or no piece)
loses. Draws: threefold repetition of a position with the same side to move, and forty moves
each without a man's move or a capture; automatic by default, or claimed (option
``draw_rules``). Option ``ballot`` opens with an ACF three-move ballot, drawn as a chance step.

A move is entered in steps so that the legal list stays a handful of actions: ``Pick`` a
piece, then ``MoveTo`` each landing in turn. Every step is checked against the complete
legal moves of the position at the start of the turn (``board.moves``): a landing is legal
when the path so far, with it, begins some legal move, and the move is made when the path
is a whole legal move. Until the first landing another piece may be picked; after it the
move goes on to its end (no partial chain is ever a move).

This module owns legality and the game's outcome; the board arithmetic is ``board``'s. It
must never look at a view, do I/O, read the clock, or use any generator but the ones given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.checkers import board as bd
from engine.checkers.ballots import BARRED, DECK, OPENINGS
from engine.checkers.state import (
    AUTOMATIC,
    BALLOT,
    CLAIM,
    FORTY,
    FORTY_MOVES,
    OVER,
    PLAY,
    REPETITION,
    SAFETY_QUIET,
    SAFETY_REPEATS,
    Ballot,
    ClaimDraw,
    LastMove,
    MoveTo,
    Pick,
    State,
)
from engine.checkers.views import CheckersView, build_view
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, Gesture, Presentation, Zone

RULES_VERSION = "1.0"

# Stable codes of this game's refusals (errors.py has the shared ones).
BAD_SQUARE = "bad_square"  # not a square number 1-32
NOT_YOURS = "not_yours"  # no piece of the mover's there
MUST_CAPTURE = "must_capture"  # that piece cannot take, and another can: taking is compulsory
NOT_MOVABLE = "not_movable"  # that piece has no legal move
PICK_FIRST = "pick_first"  # a landing before any piece is picked
BAD_LANDING = "bad_landing"  # not a square the picked piece can reach next
MUST_CONTINUE = "must_continue"  # a jump chain under way must be finished
ALREADY_PICKED = "already_picked"  # that piece is the one picked
NO_CLAIM = "no_claim"  # no such draw claim is open now

# Outcome reasons (message keys).
WON_NO_PIECES = "checkers.no_pieces"
WON_NO_MOVES = "checkers.no_moves"
DRAW_REPETITION = "checkers.repetition"
DRAW_FORTY = "checkers.forty_moves"
CLAIMED = {REPETITION: "checkers.claimed_repetition",
           FORTY_MOVES: "checkers.claimed_forty_moves"}

# The shared action instances legal_actions hands out.
PICK = tuple(Pick(s + 1) for s in range(32))
MOVE_TO = tuple(MoveTo(s + 1) for s in range(32))
CLAIMS = {REPETITION: ClaimDraw(REPETITION), FORTY_MOVES: ClaimDraw(FORTY_MOVES)}


@lru_cache(maxsize=4096)
def legal_moves(dark: int, light: int, kings: int, side: int) -> tuple[bd.Move, ...]:
    """Every complete legal move of ``side`` (cached: each step of a move asks again)."""
    if side == bd.DARK:
        return tuple(bd.moves(dark, light, kings, side))
    return tuple(bd.moves(light, dark, kings, side))


def moves_of(state: State) -> tuple[bd.Move, ...]:
    return legal_moves(state.dark, state.light, state.kings, state.side)


def _square(action: Any) -> int:
    sq = action.square
    if not isinstance(sq, int) or isinstance(sq, bool) or not 1 <= sq <= 32:
        raise IllegalAction(BAD_SQUARE, "squares are numbered 1 to 32")
    return sq - 1


def parse_move(moves: tuple[bd.Move, ...], text: str) -> bd.Move | None:
    """The move of ``moves`` written ``text`` ("11-15", "13x22", "15x24x31"), or None."""
    for m in moves:
        if bd.notation(m) == text:
            return m
    return None


class CheckersGame(Game[State]):
    info = GameInfo(
        id="checkers",
        title="Checkers",
        players=(2,),
        default_players=2,
        rules_version=RULES_VERSION,
        summary="English draughts: jump and crown on 8x8; taking is compulsory, and the "
                "player left without a move loses.",
        teams="two sides: seat 0 dark (moves first), seat 1 light",
        options=(
            Option("draw_rules", "choice", AUTOMATIC,
                   "threefold repetition and forty moves each without a man's move or a "
                   "capture draw at once (automatic), or are claimed by the player to move",
                   choices=(AUTOMATIC, CLAIM)),
            Option("ballot", "bool", False,
                   "tournament opening: the first three moves are a three-move ballot "
                   "drawn from the ACF's 156"),
            Option("ballot_number", "int", None,
                   "with ballot: play this ACF opening (1-174, not a barred one) instead "
                   "of drawing one", minimum=1, maximum=len(OPENINGS), nullable=True),
        ),
        presentation=Presentation(
            family="grid_board",
            zones=(Zone("board", "grid", "board", rows=8, cols=8, labels="numbered"),),
            # A square number is a tap on that dark square of the grid (docs/rules/checkers.md).
            gestures=(Gesture(("square",), "cell", "board"),),
            seat_colours=("red", "white"),
        ),
    )
    action_types = (Pick, MoveTo, ClaimDraw)
    chance_types = (Ballot,)

    # -- set-up ---------------------------------------------------------------------------
    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        number = options.get("ballot_number")
        if number is None:
            return
        if not options.get("ballot"):
            raise OptionError("ballot_number", "only with ballot=true", "unset")
        if number in BARRED:
            raise OptionError("ballot_number", f"opening {number} is barred",
                              "1-174 but " + ", ".join(map(str, sorted(BARRED))))

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (0, 1)

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        dark, light = bd.START_DARK, bd.START_LIGHT
        ballot = bool(options.get("ballot", False))
        return State(
            draw_rules=str(options.get("draw_rules", AUTOMATIC)), ballot_option=ballot,
            ballot_number=options.get("ballot_number"), seed=seed,
            phase=BALLOT if ballot else PLAY, dark=dark, light=light, kings=0, side=bd.DARK,
            picked=-1, path=(), quiet=0, history=(bd.key(dark, light, 0, bd.DARK),), moves=0,
            captures=(0, 0), last=None, ballot=0, result=None)

    # -- chance ---------------------------------------------------------------------------
    def chance_outcome(self, state: State) -> Ballot | None:
        if state.phase != BALLOT:
            return None
        if state.ballot_number is not None:
            return Ballot(state.ballot_number)
        return Ballot(DECK[chance_rng(state.seed, 0).randrange(len(DECK))])

    def apply_chance(self, state: State, outcome: Any) -> State:
        if state.phase != BALLOT:
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no ballot is pending")
        number = outcome.number if isinstance(outcome, Ballot) else None
        if (not isinstance(number, int) or isinstance(number, bool) or number not in DECK
                or (state.ballot_number is not None and number != state.ballot_number)):
            raise IllegalAction(errors.BAD_CHANCE, "a ballot is one of the ACF openings "
                                                   "in the deck (or the one the table chose)")
        st = state._replace(phase=PLAY, ballot=number)
        for text in OPENINGS[number - 1].split():
            move = parse_move(moves_of(st), text)
            if move is None:  # the data is checked by the tests: never reached
                raise AssertionError(f"ballot {number}: {text} is not legal")
            st = self._finish(st, move)
        return st

    # -- play -----------------------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        return (state.side,) if state.phase == PLAY else ()

    def claims(self, state: State) -> tuple[str, ...]:
        """The draw claims open to the player to move (claim mode, before any landing).

        Repetition: the position stands for the third time, or one of the mover's moves
        would make it stand for the third time (WCDF: the claimant's next move). Forty
        moves: each side has made forty moves without a man's move or a capture."""
        if state.draw_rules != CLAIM or state.phase != PLAY or state.path:
            return ()
        out: list[str] = []
        hist = state.history
        if hist.count(hist[-1]) >= 3 or any(
                not m[1] and state.kings >> m[0][0] & 1
                and hist.count(bd.key(*bd.play(state.dark, state.light, state.kings,
                                                state.side, m), 1 - state.side)) >= 2
                for m in moves_of(state)):
            out.append(REPETITION)
        if state.quiet >= FORTY:
            out.append(FORTY_MOVES)
        return tuple(out)

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if state.phase != PLAY or seat != state.side:
            return ()
        ms = moves_of(state)
        claims = tuple(CLAIMS[c] for c in self.claims(state))
        if state.picked < 0:
            return tuple(PICK[s] for s in sorted({m[0][0] for m in ms})) + claims
        prefix = (state.picked, *state.path)
        n = len(prefix)
        landings = tuple(MOVE_TO[s] for s in sorted({m[0][n] for m in ms
                                                     if m[0][:n] == prefix}))
        if state.path:
            return landings
        others = tuple(PICK[s] for s in sorted({m[0][0] for m in ms}) if s != state.picked)
        return landings + others + claims

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.phase == OVER:
            raise IllegalAction(errors.GAME_OVER, "the game is over")
        if state.phase != PLAY:
            raise IllegalAction(errors.CHANCE_PENDING, "the ballot comes first")
        if seat != state.side:
            raise IllegalAction(errors.NOT_YOUR_TURN, f"seat {state.side} is to move")
        if isinstance(action, Pick):
            return self._pick(state, _square(action))
        if isinstance(action, MoveTo):
            return self._move_to(state, _square(action))
        if isinstance(action, ClaimDraw):
            if action.reason not in self.claims(state):
                raise IllegalAction(NO_CLAIM, "no such draw claim is open now")
            return state._replace(phase=OVER, picked=-1, path=(),
                                  result=Outcome((), (0, 0), CLAIMED[action.reason], True))
        raise IllegalAction(errors.ILLEGAL_ACTION, "pick a piece, move it, or claim a draw")

    def _pick(self, state: State, s: int) -> State:
        if state.path:
            raise IllegalAction(MUST_CONTINUE, "finish the jump under way")
        if s == state.picked:
            raise IllegalAction(ALREADY_PICKED, f"the piece on {s + 1} is picked: move it")
        own = state.dark if state.side == bd.DARK else state.light
        if not own >> s & 1:
            raise IllegalAction(NOT_YOURS, f"no piece of yours on {s + 1}")
        ms = moves_of(state)
        if not any(m[0][0] == s for m in ms):
            if ms and ms[0][1]:
                raise IllegalAction(MUST_CAPTURE, "taking is compulsory: pick a piece that can")
            raise IllegalAction(NOT_MOVABLE, f"the piece on {s + 1} cannot move")
        return state._replace(picked=s, path=())

    def _move_to(self, state: State, t: int) -> State:
        if state.picked < 0:
            raise IllegalAction(PICK_FIRST, "pick a piece first")
        prefix = (state.picked, *state.path, t)
        n = len(prefix)
        # The whole path is checked again, against the turn's complete legal moves.
        fits = [m for m in moves_of(state) if m[0][:n] == prefix]
        if not fits:
            raise IllegalAction(BAD_LANDING, f"the piece cannot go to {t + 1} now")
        for m in fits:
            if len(m[0]) == n:
                return self._finish(state, m)
        return state._replace(path=(*state.path, t))

    def _finish(self, state: State, move: bd.Move) -> State:
        """The state after ``move``, a complete legal move of the side to move."""
        side = state.side
        dark, light, kings = bd.play(state.dark, state.light, state.kings, side, move)
        other = 1 - side
        progress = bool(move[1]) or bd.is_man_move(state.kings, move)
        quiet = 0 if progress else state.quiet + 1
        k = bd.key(dark, light, kings, other)
        history = (k,) if progress else (*state.history, k)
        captures = list(state.captures)
        captures[side] += move[1].bit_count()
        result: Outcome | None = None
        own, opp = (light, dark) if other == bd.LIGHT else (dark, light)
        if not bd.has_move(own, opp, kings, other):
            scores = (1, 0) if side == 0 else (0, 1)
            result = Outcome((side,), scores, WON_NO_MOVES if own else WON_NO_PIECES)
        else:
            repeats, limit = ((3, FORTY) if state.draw_rules == AUTOMATIC
                              else (SAFETY_REPEATS, SAFETY_QUIET))
            if history.count(k) >= repeats:
                result = Outcome((), (0, 0), DRAW_REPETITION, True)
            elif quiet >= limit:
                result = Outcome((), (0, 0), DRAW_FORTY, True)
        return state._replace(
            phase=OVER if result else PLAY, dark=dark, light=light, kings=kings, side=other,
            picked=-1, path=(), quiet=quiet, history=history, moves=state.moves + 1,
            captures=(captures[0], captures[1]), last=LastMove(side, move[0], move[1]),
            result=result)

    # -- reading --------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> CheckersView:
        return build_view(self, state, seat)

    def common(self, view: CheckersView) -> Common:
        captions: list[Caption] = []
        if view.ballot:
            captions.append(Caption("checkers.ballot", (("n", view.ballot),
                                                        ("opening", view.opening))))
        if view.path:
            captions.append(Caption("checkers.continue_jump"))
        elif view.must_capture:
            captions.append(Caption("checkers.must_capture"))
        if view.phase == PLAY and view.quiet_moves >= 20:
            captions.append(Caption("checkers.quiet_moves", (("n", view.quiet_moves // 2),
                                                             ("limit", view.quiet_limit // 2))))
        if view.phase == PLAY and view.repetitions >= 2:
            captions.append(Caption("checkers.repetitions", (("n", view.repetitions),)))
        last = view.last
        return Common(
            seat=view.seat, to_act=view.to_act, hand=(), hand_counts=(), teams=(0, 1),
            scores=view.captures, phase=view.phase,
            last=Caption("checkers.last_move", (("seat", last.seat), ("move", last.notation)))
            if last else None,
            captions=tuple(captions))

    def outcome(self, state: State) -> Outcome | None:
        return state.result

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Nothing is hidden but the seed: the same board with another seed."""
        return state._replace(seed=rng.getrandbits(62))


GAME = CheckersGame()
