"""Mastermind (rules 1.0): the state machine, its actions, and its legality.

Rules (docs/rules/mastermind.md states them in full): two seats; a codemaker hides a code of
``holes`` pegs from ``colours`` colours (blanks and repeats as the table allows), a breaker
guesses it row by row, and each guess is answered with black pegs (right colour, right
hole) and white pegs (right colour, wrong hole; a colour counts at most as often as it is in
the code). Classic: the seats alternate as codemaker over an even number of games, and the
codemaker scores a point per guess the breaker needed, plus one if the code was not broken.
Duel: both make and both break, guessing in turns; a round ends when both have guessed
equally often and one of them has broken the other's code (or the rows ran out), and the
one who broke it alone wins the round's point.

Codes and guesses are entered peg by peg (``SetPeg``, ``ClearPeg``), then made binding with
``Submit``, so a legal list is at most holes x palette + holes + 2 actions. A codemaker may
instead ask the host to draw its code (``DrawCode``): that, and every code of a table whose
codes are all drawn by the computer, is a chance step (``SecretCode``) drawn from
``chance_rng``, recorded, and seen only by its maker until the code is broken or its game
ends. Feedback is computed here, never given by a seat, so no codemaker can answer wrongly.

States are immutable ``State`` tuples. This module owns legality; it must never look at a
view, do I/O, read the clock, or use any generator but the ones it is given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.mastermind.codes import Code, Table, feedback, key_of
from engine.mastermind.solver import consistent
from engine.mastermind.state import (
    BETWEEN,
    BY_COMPUTER,
    BY_PLAYERS,
    CLASSIC,
    DRAW,
    DUEL,
    GUESS,
    OVER,
    SET,
    SUBMIT,
    Board,
    ClearPeg,
    Draft,
    DrawCode,
    Result,
    RowView,
    Rules,
    SecretCode,
    SetPeg,
    State,
    Submit,
)
from engine.presentation import Common, Gesture, Presentation, Zone

RULES_VERSION = "1.0"
PLAYERS_COUNT = 2

# Stable codes of this game's refusals (errors.py has the shared ones).
BAD_HOLE = "bad_hole"  # no such hole
BAD_COLOUR = "bad_colour"  # not a colour of the table (or a blank where blanks are off)
REPEATED_COLOUR = "repeated_colour"  # the colour is in another hole and repeats are off
SAME_PEG = "same_peg"  # the hole already holds that colour
EMPTY_HOLE = "empty_hole"  # nothing to clear
INCOMPLETE = "incomplete"  # submit with an empty hole
NO_DRAW = "no_draw"  # a draw asked for when codes are not the players' to make

OPTIONS = (
    Option("mode", "choice", CLASSIC, "classic: seats alternate as codemaker over an even "
           "number of games; duel: both set codes and guess in turns", choices=(CLASSIC, DUEL)),
    Option("holes", "int", 4, "pegs in a code (3 to 5)", minimum=3, maximum=5),
    Option("colours", "int", 6, "colours to choose from: 6 (standard) or 8 (Super "
           "Mastermind); 7 is allowed too", minimum=6, maximum=8),
    Option("duplicates", "bool", True, "a colour may appear more than once in a code"),
    Option("blanks", "bool", False, "a hole may be left empty; a blank scores like one more "
           "colour"),
    Option("rows", "int", 10, "guesses a breaker has per code (the board's rows)",
           minimum=6, maximum=12),
    Option("games", "int", 2, "games in the match (even in classic: each seat makes as "
           "often as it breaks) or rounds in a duel", minimum=1, maximum=12),
    Option("codemaker", "choice", BY_PLAYERS, "players: each codemaker enters a code (or has "
           "the host draw one); computer: the host draws every code and both seats only "
           "break", choices=(BY_PLAYERS, BY_COMPUTER)),
)

INFO = GameInfo(
    id="mastermind",
    title="Mastermind",
    players=(PLAYERS_COUNT,),
    default_players=PLAYERS_COUNT,
    rules_version=RULES_VERSION,
    summary="Break the hidden code of coloured pegs: black for the right colour in the right "
            "hole, white for a right colour elsewhere.",
    teams="each for themselves",
    options=OPTIONS,
    presentation=Presentation(
        family="code_breaking",
        zones=(Zone("boards", "code_rows", "boards"), Zone("previous", "code_rows", "previous"),
               Zone("results", "score_sheet", "results")),
        # A peg is a button per (hole, colour) in the breaker's current row.
        gestures=(Gesture(("hole", "colour"), "button"), Gesture(("hole",), "button")),
    ),
)


def empty_draft(table: Table) -> Draft:
    return (None,) * table.holes


@lru_cache(maxsize=4096)
def entry_actions(table: Table, draft: Draft) -> tuple[Any, ...]:
    """What may be done to an entry: every peg that changes a hole (no colour of another
    hole when repeats are off), every clear, and the submit once every hole is filled.
    The same instances for the same entry, so a host's legal list costs a lookup."""
    out: list[Any] = []
    for hole in range(table.holes):
        taken = set() if table.duplicates else {p for i, p in enumerate(draft)
                                                if i != hole and p is not None}
        out += [SetPeg(hole, c) for c in table.palette if c != draft[hole] and c not in taken]
    out += [ClearPeg(hole) for hole in range(table.holes) if draft[hole] is not None]
    if None not in draft:
        out.append(SUBMIT)
    return tuple(out)


def start_game(rules: Rules, game: int, seed: int, chances: int, scores: tuple[int, ...],
               results: tuple[Result, ...], previous: tuple[Board, ...]) -> State:
    """The state at the start of game ``game``: no code yet, the makers to set them (or the
    host to draw them)."""
    makers = rules.makers(game)
    boards = tuple(Board(1 - m, m, (), False) for m in sorted(makers, key=lambda m: 1 - m))
    by_computer = rules.codemaker == BY_COMPUTER
    phase = BETWEEN if by_computer and game > 1 else SET
    empty = empty_draft(rules.table)
    return State(rules, seed, chances, game, phase, (None,) * PLAYERS_COUNT,
                 (empty,) * PLAYERS_COUNT, makers if by_computer else (), boards,
                 (game - 1) % 2 if rules.mode == DUEL else 1 - makers[0], scores, results,
                 previous, None)


def _replace_at(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1:])


class MastermindGame(Game[State]):
    info = INFO
    action_types = (SetPeg, ClearPeg, Submit, DrawCode)
    chance_types = (SecretCode,)

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        if options["mode"] == CLASSIC and options["games"] % 2:
            raise OptionError("games", "a classic match is an even number of games, so each "
                              "seat makes as many codes as it breaks", "2, 4, 6, 8, 10, 12")

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        rules = Rules.from_options(options)
        return start_game(rules, 1, seed, 0, (0,) * players, (), ())

    # -- chance ---------------------------------------------------------------------------
    def chance_outcome(self, state: State) -> SecretCode | None:
        if not state.pending:
            return None
        return SecretCode(state.rules.table.draw(chance_rng(state.seed, state.chances)))

    def apply_chance(self, state: State, outcome: Any) -> State:
        if not state.pending:
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no code is to be drawn")
        table = state.rules.table
        if not isinstance(outcome, SecretCode) or table.problem(outcome.pegs):
            # The detail names the table's shape only, never the code that was given.
            raise IllegalAction(errors.BAD_CHANCE, "a drawn code is a well-formed code of the "
                                f"table ({table.holes} pegs)")
        maker = state.pending[0]
        state = state._replace(
            chances=state.chances + 1, pending=state.pending[1:],
            codes=_replace_at(state.codes, maker, tuple(outcome.pegs)),
            drafts=_replace_at(state.drafts, maker, empty_draft(table)),
            phase=SET if state.phase == BETWEEN else state.phase)
        return self._maybe_start_guessing(state)

    # -- play -----------------------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        if state.pending or state.phase == OVER or state.phase == BETWEEN:
            return ()
        if state.phase == GUESS:
            return (state.turn,)
        return tuple(m for m in sorted(state.rules.makers(state.game))
                     if state.codes[m] is None)

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if seat not in self.to_act(state):
            return ()
        actions = entry_actions(state.rules.table, state.drafts[seat])
        if state.phase == SET and state.rules.codemaker == BY_PLAYERS:
            return (*actions, DRAW)
        return actions

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.phase == OVER:
            raise IllegalAction(errors.GAME_OVER, "the match is over")
        if state.pending or state.phase == BETWEEN:
            raise IllegalAction(errors.CHANCE_PENDING, "the host draws a code first")
        if seat not in self.to_act(state):
            who = "the breaker guesses" if state.phase == GUESS else "codemakers set codes"
            raise IllegalAction(errors.NOT_YOUR_TURN, f"not your turn: {who}")
        table = state.rules.table
        draft = state.drafts[seat]
        if isinstance(action, SetPeg):
            hole, colour = action.hole, action.colour
            self._check_hole(table, hole)
            if type(colour) is not int or colour not in table.palette:
                raise IllegalAction(BAD_COLOUR, f"colours are 1 to {table.colours}"
                                    + (", or 0 for a blank" if table.blanks else ""))
            if draft[hole] == colour:
                raise IllegalAction(SAME_PEG, "that hole already holds that colour")
            if not table.duplicates and any(p == colour for i, p in enumerate(draft)
                                            if i != hole):
                raise IllegalAction(REPEATED_COLOUR, "no colour may repeat on this table")
            return state._replace(drafts=_replace_at(state.drafts, seat,
                                                     _replace_at(draft, hole, colour)))
        if isinstance(action, ClearPeg):
            self._check_hole(table, action.hole)
            if draft[action.hole] is None:
                raise IllegalAction(EMPTY_HOLE, "that hole is empty")
            return state._replace(drafts=_replace_at(state.drafts, seat,
                                                     _replace_at(draft, action.hole, None)))
        if isinstance(action, Submit):
            if None in draft:
                raise IllegalAction(INCOMPLETE, f"fill all {table.holes} holes first")
            code: Code = tuple(p for p in draft if p is not None)
            if state.phase == SET:
                return self._maybe_start_guessing(state._replace(
                    codes=_replace_at(state.codes, seat, code),
                    drafts=_replace_at(state.drafts, seat, empty_draft(table))))
            return self._score_guess(state, seat, code)
        if isinstance(action, DrawCode):
            if state.phase != SET or state.rules.codemaker != BY_PLAYERS:
                raise IllegalAction(NO_DRAW, "only a codemaker setting its code may have the "
                                    "host draw it")
            return state._replace(pending=(*state.pending, seat),
                                  drafts=_replace_at(state.drafts, seat, empty_draft(table)))
        raise IllegalAction(errors.ILLEGAL_ACTION, "set or clear a peg, submit, or draw a code")

    @staticmethod
    def _check_hole(table: Table, hole: object) -> None:
        if type(hole) is not int or not 0 <= hole < table.holes:
            raise IllegalAction(BAD_HOLE, f"holes are 0 to {table.holes - 1}")

    @staticmethod
    def _maybe_start_guessing(state: State) -> State:
        makers = state.rules.makers(state.game)
        if state.pending or any(state.codes[m] is None for m in makers):
            return state
        return state._replace(phase=GUESS)

    def _score_guess(self, state: State, seat: int, guess: Code) -> State:
        rules = state.rules
        i = next(i for i, b in enumerate(state.boards) if b.breaker == seat)
        board = state.boards[i]
        code = state.codes[board.maker]
        assert code is not None, "guessing starts only once every code is set"
        black, white = feedback(code, guess)
        board = board._replace(rows=(*board.rows, RowView(guess, black, white)),
                               broken=black == rules.table.holes)
        boards = _replace_at(state.boards, i, board)
        state = state._replace(boards=boards, last=(seat, black, white),
                               drafts=_replace_at(state.drafts, seat,
                                                  empty_draft(rules.table)))
        if rules.mode == CLASSIC:
            if board.broken or len(board.rows) == rules.rows:
                return self._end_game(state)
            return state
        # Duel: the other breaker guesses next; once both have guessed equally often, the
        # round ends if either broke a code or the rows ran out.
        if len(state.boards[1 - i].rows) == len(board.rows) and (
                any(b.broken for b in boards) or len(board.rows) == rules.rows):
            return self._end_game(state)
        return state._replace(turn=1 - seat)

    def _end_game(self, state: State) -> State:
        rules = state.rules
        scores = list(state.scores)
        results = []
        for b in state.boards:
            code = state.codes[b.maker]
            assert code is not None
            if rules.mode == CLASSIC:
                scorer, points = b.maker, len(b.rows) + (0 if b.broken else 1)
            else:
                rival = next(o for o in state.boards if o is not b)
                scorer, points = b.breaker, int(b.broken and not rival.broken)
            scores[scorer] += points
            results.append(Result(state.game, b.maker, b.breaker, len(b.rows), b.broken, code,
                                  scorer, points))
        done = (*state.results, *results)
        if state.game >= rules.games:
            return state._replace(phase=OVER, scores=tuple(scores), results=done,
                                  previous=state.boards, boards=())
        return start_game(rules, state.game + 1, state.seed, state.chances, tuple(scores),
                          done, state.boards)._replace(last=state.last)

    # -- reading --------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> Any:
        from engine.mastermind.views import build_view

        return build_view(self, state, seat)

    def common(self, view: Any) -> Common:
        from engine.mastermind.views import common_of

        return common_of(view)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        a, b = state.scores
        if a == b:
            return Outcome((), state.scores, "mastermind.equal_points", draw=True)
        return Outcome((0,) if a > b else (1,), state.scores, "mastermind.most_points")

    def between_hands(self, state: State) -> bool:
        return state.phase == BETWEEN

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Every code ``seat`` cannot see redrawn among those that fit the feedback it has
        seen; other makers' entries in progress redrawn at random; a new seed."""
        rules = state.rules
        table = rules.table
        codes = list(state.codes)
        own = seat if rules.codemaker == BY_PLAYERS else None  # a drawn code is nobody's
        for b in state.boards:
            if b.maker == own or b.broken or codes[b.maker] is None:
                continue
            rows = tuple((x.guess, key_of(x.black, x.white)) for x in b.rows)
            codes[b.maker] = rng.choice(consistent(table, rows))
        drafts = list(state.drafts)
        if state.phase == SET:
            for m in rules.makers(state.game):
                if m != seat:
                    drafts[m] = _random_draft(table, rng)
        return state._replace(codes=tuple(codes), drafts=tuple(drafts),
                              seed=rng.getrandbits(62))


def _random_draft(table: Table, rng: random.Random) -> Draft:
    pegs = list(table.draw(rng))
    return tuple(p if rng.random() < 0.5 else None for p in pegs)


GAME = MastermindGame()
