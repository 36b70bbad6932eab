"""Backgammon (rules 1.0): the state machine, its actions, and its legality (USBGF rules).

Rules (docs/rules/backgammon.md states them in full): two seats, fifteen checkers each. The
opening roll is a chance step of one die per seat (ties roll again; with automatic doubles,
in money play, a tie doubles the cube); the higher die plays both numbers. Each later turn
starts with the seat to play doubling or rolling (straight to the roll when it may not
double), and its dice are a chance step drawn only then, from ``chance_rng``: no roll exists
anywhere before its turn starts, so nothing a seat receives predicts one. A turn is entered
one checker and one die at a time (``Move``), with ``Undo`` back to the turn's start and
``Confirm`` once as many dice as possible are played (both if possible, else the larger;
doubles four times; the bar first; bearing off with exact or, from the highest point,
higher dice). Single 1, gammon 2, backgammon 3 (toggle), times the cube; Jacoby in money
play; beavers; the Crawford game in a match.

States are immutable ``State`` tuples. This module owns legality; it must never look at a
view, do I/O, read the clock, or use any generator but the ones it is given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import errors
from engine.backgammon import moves as mv
from engine.backgammon.state import (
    BEAVER,
    CONFIRM,
    CUBE,
    CUBE_MAX,
    DECIDE,
    DOUBLE,
    MATCH,
    MONEY,
    MOVE,
    OPENING,
    OVER,
    PASS,
    ROLL,
    ROLL_ACTION,
    START,
    TAKE,
    UNDO,
    Beaver,
    Confirm,
    Dice,
    Double,
    GameResult,
    Move,
    Pass,
    Roll,
    Rules,
    State,
    Take,
    Undo,
    from_pos,
    position,
    to_pos,
)
from engine.backgammon.views import build_view, common_of
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Common, Gesture, Presentation, Zone

RULES_VERSION = "1.0"

BAD_MOVE = "bad_move"  # not a legal checker step now
NOTHING_TO_UNDO = "nothing_to_undo"
DICE_LEFT = "dice_left"  # confirm while a die can still be played
WRONG_PHASE = "wrong_phase"  # an action of another part of the turn

OPTIONS = (
    Option("mode", "choice", MONEY, "money: a session of games scored by points; match: "
           "first to the match length, with the Crawford rule", choices=(MONEY, MATCH)),
    Option("length", "int", 5, "match play: points needed to win the match (1 to 25)",
           minimum=1, maximum=25),
    Option("games", "int", 1, "money play: games in the session", minimum=1, maximum=50),
    Option("cube", "bool", True, "the doubling cube is in play"),
    Option("jacoby", "bool", False, "money play: gammons and backgammons count only once the "
           "cube has been turned"),
    Option("beavers", "bool", False, "money play: a doubled player may take and at once "
           "redouble, keeping the cube"),
    Option("auto_doubles", "bool", False, "money play: equal opening dice double the cube"),
    Option("gammons", "bool", True, "gammons (2) and backgammons (3) count; off: every game "
           "is single"),
)

INFO = GameInfo(
    id="backgammon",
    title="Backgammon",
    players=(2,),
    default_players=2,
    rules_version=RULES_VERSION,
    summary="Race your fifteen checkers home and bear them off, hitting blots on the way, "
            "with the doubling cube.",
    teams="each for themselves",
    options=OPTIONS,
    presentation=Presentation(
        family="track_board",
        zones=(Zone("track", "track", "board", points=24),),
        gestures=(Gesture(("src", "dst"), "from_to", "track"),),
        seat_colours=("white", "black"),
    ),
)


def may_double(state: State, seat: int) -> bool:
    r = state.rules
    if not r.cube or state.crawford or state.cube >= CUBE_MAX:
        return False
    return state.owner in (None, seat)


def new_game(rules: Rules, seed: int, chances: int, game: int, scores: tuple[int, int],
             results: tuple[GameResult, ...], crawford: bool, crawford_done: bool) -> State:
    return State(rules, seed, chances, game, OPENING, START, (0, 0), (0, 0), 0, (), (), (),
                 (START, (0, 0), (0, 0)), 0, 1, None, False, crawford, crawford_done, scores,
                 results, 0)


class BackgammonGame(Game[State]):
    info = INFO
    action_types = (Move, Undo, Confirm, Roll, Double, Take, Pass, Beaver)
    chance_types = (Dice,)

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        if options["mode"] == MATCH:
            for name in ("jacoby", "beavers", "auto_doubles"):
                if options[name]:
                    raise OptionError(name, "a money-play rule: not used in match play",
                                      "false")

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return new_game(Rules.from_options(options), seed, 0, 1, (0, 0), (), False, False)

    # -- chance ---------------------------------------------------------------------------
    def chance_outcome(self, state: State) -> Dice | None:
        if state.phase not in (OPENING, ROLL):
            return None
        rng = chance_rng(state.seed, state.chances)
        return Dice(rng.randint(1, 6), rng.randint(1, 6))

    def apply_chance(self, state: State, outcome: Any) -> State:
        if state.phase not in (OPENING, ROLL):
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no dice are to be rolled")
        if (not isinstance(outcome, Dice) or type(outcome.a) is not int
                or type(outcome.b) is not int or not (1 <= outcome.a <= 6 and 1 <= outcome.b <= 6)):
            raise IllegalAction(errors.BAD_CHANCE, "dice are two numbers from 1 to 6")
        a, b = outcome.a, outcome.b
        state = state._replace(chances=state.chances + 1)
        if state.phase == OPENING:
            if a == b:
                r = state.rules
                cube = state.cube
                if r.auto_doubles and r.cube and r.mode == MONEY and cube < CUBE_MAX:
                    cube *= 2
                return state._replace(ties=state.ties + 1, cube=cube)
            return self._start_moving(state._replace(turn=0 if a > b else 1), a, b)
        return self._start_moving(state, a, b)

    def _start_moving(self, state: State, a: int, b: int) -> State:
        dice = mv.turn_dice(a, b)
        pos = position(state, state.turn)
        return state._replace(phase=MOVE, dice=(a, b), left=dice, steps=(),
                              start=(state.board, state.bar, state.off),
                              need=mv.most_playable(pos, dice))

    # -- play -----------------------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        if state.phase in (DECIDE, MOVE):
            return (state.turn,)
        if state.phase == CUBE:
            return (1 - state.turn,)
        return ()

    def steps_now(self, state: State) -> list[mv.Step]:
        pos = position(state, state.turn)
        return mv.legal_steps(pos, state.left, state.need - len(state.steps), not state.steps)

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if seat not in self.to_act(state):
            return ()
        if state.phase == DECIDE:
            return (ROLL_ACTION, DOUBLE)
        if state.phase == CUBE:
            r = state.rules
            beaver = r.beavers and r.mode == MONEY and state.cube * 4 <= CUBE_MAX
            return (TAKE, PASS, BEAVER) if beaver else (TAKE, PASS)
        out: list[Any] = [Move(s, d, die) for s, d, die in self.steps_now(state)]
        if state.steps:
            out.append(UNDO)
        if len(state.steps) >= state.need:
            out.append(CONFIRM)
        return tuple(out)

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.phase == OVER:
            raise IllegalAction(errors.GAME_OVER, "the match is over")
        if state.phase in (OPENING, ROLL):
            raise IllegalAction(errors.CHANCE_PENDING, "the dice are rolled first")
        if seat not in self.to_act(state):
            raise IllegalAction(errors.NOT_YOUR_TURN, "not your turn")
        if state.phase == DECIDE:
            if isinstance(action, Roll):
                return state._replace(phase=ROLL)
            if isinstance(action, Double):
                return state._replace(phase=CUBE)
            raise IllegalAction(WRONG_PHASE, "double or roll")
        if state.phase == CUBE:
            if isinstance(action, Take):
                return state._replace(phase=ROLL, cube=state.cube * 2, owner=seat,
                                      turned=True)
            if isinstance(action, Beaver) and BEAVER in self.legal_actions(state, seat):
                return state._replace(phase=ROLL, cube=state.cube * 4, owner=seat,
                                      turned=True)
            if isinstance(action, Pass):
                return self._end_game(state, 1 - seat, state.cube, "passed")
            raise IllegalAction(WRONG_PHASE, "take or pass the double")
        if isinstance(action, Move):
            step = (action.src, action.dst, action.die)
            if step not in self.steps_now(state):
                raise IllegalAction(BAD_MOVE, "not a legal checker move with these dice")
            pos = mv.apply_step(position(state, seat), step)
            board, bar, off = from_pos(pos, seat)
            left = list(state.left)
            left.remove(action.die)
            return state._replace(board=board, bar=bar, off=off, left=tuple(left),
                                  steps=(*state.steps, action))
        if isinstance(action, Undo):
            if not state.steps:
                raise IllegalAction(NOTHING_TO_UNDO, "no checker moved this turn")
            board, bar, off = state.start
            pos = to_pos(board, bar, off, seat)
            for s in state.steps[:-1]:
                pos = mv.apply_step(pos, (s.src, s.dst, s.die))
            board, bar, off = from_pos(pos, seat)
            return state._replace(board=board, bar=bar, off=off, steps=state.steps[:-1],
                                  left=tuple(sorted((*state.left, state.steps[-1].die),
                                                    reverse=True)))
        if isinstance(action, Confirm):
            if len(state.steps) < state.need:
                raise IllegalAction(DICE_LEFT, "play every die that can be played first")
            return self._end_turn(state)
        raise IllegalAction(errors.ILLEGAL_ACTION, "move a checker, undo, or confirm")

    def _end_turn(self, state: State) -> State:
        seat = state.turn
        if state.off[seat] == 15:
            theirs = position(state, seat)[1]
            kind, mult = "single", 1
            r = state.rules
            # Jacoby: in money play a gammon counts only once the cube has been turned.
            counts = r.gammons and not (r.jacoby and r.mode == MONEY and not state.turned)
            if counts and theirs[25] == 0:
                kind, mult = "gammon", 2
                if theirs[0] or any(theirs[1:7]):  # on the bar or in the winner's home
                    kind, mult = "backgammon", 3
            return self._end_game(state, seat, mult * state.cube, kind)
        nxt = 1 - seat
        state = state._replace(turn=nxt, dice=(), left=(), steps=(), need=0)
        return state._replace(phase=DECIDE if may_double(state, nxt) else ROLL)

    def _end_game(self, state: State, winner: int, points: int, kind: str) -> State:
        r = state.rules
        scores = list(state.scores)
        scores[winner] += points
        sc = (scores[0], scores[1])
        results = (*state.results, GameResult(state.game, winner, points, kind, state.cube))
        done = (max(sc) >= r.length) if r.mode == MATCH else state.game >= r.games
        if done:
            return state._replace(phase=OVER, scores=sc, results=results, dice=(), left=(),
                                  steps=(), need=0)
        crawford = False
        crawford_done = state.crawford_done or state.crawford
        if r.mode == MATCH and r.cube and not crawford_done and max(sc) == r.length - 1:
            crawford = True
        return new_game(r, state.seed, state.chances, state.game + 1, sc, results, crawford,
                        crawford_done)

    # -- reading --------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> Any:
        return build_view(self, state, seat)

    def common(self, view: Any) -> Common:
        return common_of(view)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        a, b = state.scores
        if a == b:
            return Outcome((), state.scores, "backgammon.equal_points", draw=True)
        reason = "backgammon.won_match" if state.rules.mode == MATCH else "backgammon.most_points"
        return Outcome((0,) if a > b else (1,), state.scores, reason)

    def between_hands(self, state: State) -> bool:
        return state.phase == OPENING and state.game > 1 and state.ties == 0

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Only the seed is hidden (every past roll is public): a new one."""
        return state._replace(seed=rng.getrandbits(62))


GAME = BackgammonGame()
