"""Golf (tablebox rules 1.0): the state machine, its actions and their legality.

Rules (docs/rules/golf.md states them in full): 2 to 6 players (two decks from four), each
with a layout of 4 (2x2), 6 (2x3), 8 (2x4) or 9 (3x3) cards dealt face down. At the start
each player looks at the bottom row of a 4-card layout (known to that player alone), or
turns two cards (three in 9-card) face up. A turn: take the stock's top card, which may go
into the layout or be discarded (then a face-down card may, or must, be flipped), or the
discard pile's top card, which must go into the layout; or, where the end rule is ``knock``,
knock instead of drawing. The hole ends after a knock once every other player has had one
more turn, or (``face_up``) when a layout is all face up, with or without the others' one
more turn. Lowest total over the holes wins.

This module owns legality; it must never look at a view, do I/O, read the clock, or use any
generator but the seeded chance generator and the ones it is given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.discard_pile import reshuffled, shuffled
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.golf.state import (
    BETWEEN,
    DEAL,
    DECK,
    FACE_UP,
    FLIP,
    KNOCK,
    OVER,
    PLACE,
    PLACE_OR_DISCARD,
    SHAPES,
    TURN,
    TWO_DECKS_FROM,
    Deal,
    Discard,
    DrawStock,
    Flip,
    Knock,
    NoFlip,
    Place,
    Reshuffle,
    State,
    TakeDiscard,
    layout_score,
)
from engine.golf.views import build_view
from engine.presentation import Caption, Common, Gesture, Presentation, Zone

RULES_VERSION = "tablebox 1.0"

# Stable codes of this game's refusals (errors.py has the shared ones).
NO_SUCH_CELL = "no_such_cell"
MUST_PLACE = "must_place"
ALREADY_UP = "already_up"
CANNOT_KNOCK = "cannot_knock"
WRONG_STEP = "wrong_step"
CODES = (NO_SUCH_CELL, MUST_PLACE, ALREADY_UP, CANNOT_KNOCK, WRONG_STEP)

STALL_LAPS = 30  # a hole nobody finishes is called after this many turns per player


def deck_for(players: int) -> tuple[str, ...]:
    return DECK * (2 if players >= TWO_DECKS_FROM else 1)


def cell(state: State, row: int, col: int) -> int:
    """The index of a cell of the layout, or ``IllegalAction`` when there is no such cell."""
    rows, cols = SHAPES[state.size]
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < rows
            and 0 <= col < cols):
        raise IllegalAction(NO_SUCH_CELL, f"the layout has {rows} rows and {cols} columns")
    return row * cols + col


def shuffle_pending(state: State) -> bool:
    return state.phase == TURN and not state.stock and len(state.discard) > 1


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1:])


# The caption of each kind of last action, spelled out so that the string test finds them.
LAST_KEYS = {
    "draw": "golf.last.draw", "take": "golf.last.take", "place": "golf.last.place",
    "discard": "golf.last.discard", "flip": "golf.last.flip", "knock": "golf.last.knock",
}

class GolfGame(Game[State]):
    info = GameInfo(
        id="golf",
        title="Golf",
        players=(2, 3, 4, 5, 6),
        default_players=4,
        rules_version=RULES_VERSION,
        summary="Swap cards into your face-down layout to score as low as you can; pairs in "
                "a column cancel.",
        teams="each for themselves",
        options=(
            Option("layout", "choice", "6", "cards in a layout: 4 (2x2), 6 (2x3), 8 (2x4), 9 (3x3)",
                   choices=("4", "6", "8", "9")),
            Option("end", "choice", "auto",
                   "how a hole ends: knock, face_up (a layout all face up), or auto "
                   "(knock for 4 cards, face_up otherwise)", choices=("auto", KNOCK, FACE_UP)),
            Option("final_turn", "bool", True,
                   "when a layout is all face up, everyone else has one more turn"),
            Option("flip", "choice", "optional",
                   "after discarding a stock card, flipping a face-down card is optional or "
                   "mandatory", choices=("optional", "mandatory")),
            Option("holes", "int", 9, "holes (deals) in the game; 3, 6, 9 or 18 are usual",
                   minimum=1, maximum=18),
            Option("knock_penalty", "bool", False,
                   "the player who ends the hole without the lowest score has it doubled"),
        ),
        presentation=Presentation(
            family="shedding",
            zones=(Zone("layout", "grid", "layout", rows=3, cols=4),
                   Zone("layouts", "piles", "layouts"), Zone("pile", "piles", "discard"),
                   Zone("totals", "score_sheet", "totals")),
            gestures=(Gesture(("row", "col"), "cell", "layout"),),
        ),
    )
    action_types = (DrawStock, TakeDiscard, Knock, Place, Discard, Flip, NoFlip)
    chance_types = (Deal, Reshuffle)

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        if options.get("flip") == "mandatory" and self._end(options) == KNOCK:
            raise OptionError("flip", "flipping belongs to the face_up end rule", ("optional",))

    @staticmethod
    def _end(options: Mapping[str, Any]) -> str:
        end = str(options.get("end", "auto"))
        if end == "auto":
            return KNOCK if str(options.get("layout", "6")) == "4" else FACE_UP
        return end

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        zeros = (0,) * players
        return State(players, int(options.get("layout", "6")), self._end(options),
                     bool(options.get("final_turn", True)),
                     options.get("flip", "optional") == "mandatory",
                     int(options.get("holes", 9)), bool(options.get("knock_penalty", False)),
                     seed, 0, 0, DEAL, ((),) * players, ((),) * players, ((),) * players,
                     (), (), "", False, 0, players - 1, -1, -1, 0, (-1, "", "", -1), zeros,
                     (), False)

    # -- chance ---------------------------------------------------------------------------
    def chance_outcome(self, state: State) -> Deal | Reshuffle | None:
        rng = chance_rng(state.seed, state.chances)
        if state.phase in (DEAL, BETWEEN):
            return Deal(shuffled(rng, deck_for(state.players)))
        if shuffle_pending(state):
            return Reshuffle(shuffled(rng, state.discard[:-1]))
        return None

    def apply_chance(self, state: State, outcome: Any) -> State:
        if state.phase in (DEAL, BETWEEN):
            return self._deal(state, outcome)
        if not shuffle_pending(state):
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no chance step is pending")
        return reshuffled(state, outcome, Reshuffle)

    def _deal(self, state: State, outcome: Any) -> State:
        n, size = state.players, state.size
        if (not isinstance(outcome, Deal) or not isinstance(outcome.cards, tuple)
                or Counter(outcome.cards) != Counter(deck_for(n))):
            raise IllegalAction(errors.BAD_CHANCE, "a deal lists every card of the deck once")
        cards = outcome.cards
        layouts = tuple(tuple(cards[s:size * n:n]) for s in range(n))
        up: tuple[tuple[bool, ...], ...]
        peeked: tuple[tuple[bool, ...], ...]
        if size == 4:  # look once at the two nearest cards: the bottom row
            up = tuple((False,) * 4 for _ in range(n))
            peeked = tuple((False, False, True, True) for _ in range(n))
        else:  # two cards face up (three in 9-card): the top row from the left
            shown = 3 if size == 9 else 2
            up = tuple(tuple(i < shown for i in range(size)) for _ in range(n))
            peeked = tuple((False,) * size for _ in range(n))
        dealer = (state.dealer + 1) % n
        return state._replace(
            chances=state.chances + 1, hole=state.hole + 1, phase=TURN, layouts=layouts,
            up=up, peeked=peeked, discard=(cards[size * n],), stock=cards[size * n + 1:],
            holding="", from_stock=False, turn=(dealer + 1) % n, dealer=dealer, ender=-1,
            left=-1, turns=0, last=(-1, "", "", -1), called=False)

    # -- play -----------------------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        if state.phase in (PLACE, PLACE_OR_DISCARD, FLIP) or (
                state.phase == TURN and not shuffle_pending(state)):
            return (state.turn,)
        return ()

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if seat not in self.to_act(state):
            return ()
        _rows, cols = SHAPES[state.size]
        phase = state.phase
        if phase == TURN:
            out: list[Any] = []
            if state.stock:
                out.append(DrawStock())
            out.append(TakeDiscard())
            if state.end == KNOCK and state.ender < 0:
                out.append(Knock())
            return tuple(out)
        if phase in (PLACE, PLACE_OR_DISCARD):
            places: list[Any] = [Place(i // cols, i % cols) for i in range(state.size)]
            return tuple(places + ([Discard()] if phase == PLACE_OR_DISCARD else []))
        up = state.up[seat]
        flips: list[Any] = [Flip(i // cols, i % cols) for i in range(state.size) if not up[i]]
        return tuple(flips + ([] if state.flip_mandatory else [NoFlip()]))

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.phase == OVER:
            raise IllegalAction(errors.GAME_OVER, "the game is over")
        if seat not in self.to_act(state):
            if state.phase in (DEAL, BETWEEN) or shuffle_pending(state):
                raise IllegalAction(errors.CHANCE_PENDING, "the cards are being dealt")
            raise IllegalAction(errors.NOT_YOUR_TURN, f"seat {state.turn} is to act")
        phase = state.phase
        if phase == TURN:
            if isinstance(action, DrawStock) and state.stock:
                return state._replace(phase=PLACE_OR_DISCARD, holding=state.stock[0],
                                      stock=state.stock[1:], from_stock=True,
                                      last=(seat, "draw", "", -1))
            if isinstance(action, TakeDiscard):
                return state._replace(phase=PLACE, holding=state.discard[-1],
                                      discard=state.discard[:-1], from_stock=False,
                                      last=(seat, "take", state.discard[-1], -1))
            if isinstance(action, Knock):
                if state.end != KNOCK or state.ender >= 0:
                    raise IllegalAction(CANNOT_KNOCK, "nobody may knock now")
                return self._end_turn(state._replace(ender=seat,
                                                     left=state.players - 1,
                                                     last=(seat, "knock", "", -1)), seat)
            raise IllegalAction(WRONG_STEP, "draw from the stock or the discard pile first")
        if phase in (PLACE, PLACE_OR_DISCARD):
            if isinstance(action, Place):
                i = cell(state, action.row, action.col)
                old = state.layouts[seat][i]
                nxt = state._replace(
                    layouts=_set(state.layouts, seat, _set(state.layouts[seat], i,
                                                           state.holding)),
                    up=_set(state.up, seat, _set(state.up[seat], i, True)),
                    peeked=_set(state.peeked, seat, _set(state.peeked[seat], i, False)),
                    discard=(*state.discard, old), holding="",
                    last=(seat, "place", state.holding, i))
                return self._end_turn(nxt, seat)
            if isinstance(action, Discard):
                if phase == PLACE:
                    raise IllegalAction(MUST_PLACE, "a card from the discard pile must go "
                                                    "into the layout")
                nxt = state._replace(discard=(*state.discard, state.holding), holding="",
                                     last=(seat, "discard", state.holding, -1))
                if state.end == FACE_UP and not all(state.up[seat]):
                    return nxt._replace(phase=FLIP)
                return self._end_turn(nxt, seat)
            raise IllegalAction(WRONG_STEP, "place the card or discard it")
        # FLIP
        if isinstance(action, Flip):
            i = cell(state, action.row, action.col)
            if state.up[seat][i]:
                raise IllegalAction(ALREADY_UP, "that card is already face up")
            nxt = state._replace(up=_set(state.up, seat, _set(state.up[seat], i, True)),
                                 peeked=_set(state.peeked, seat,
                                             _set(state.peeked[seat], i, False)),
                                 last=(seat, "flip", state.layouts[seat][i], i))
            return self._end_turn(nxt, seat)
        if isinstance(action, NoFlip) and not state.flip_mandatory:
            return self._end_turn(state, seat)
        raise IllegalAction(WRONG_STEP, "flip a face-down card" + (
            "" if state.flip_mandatory else " or leave them"))

    def _end_turn(self, state: State, seat: int) -> State:
        n = state.players
        turns = state.turns + 1
        ender, left = state.ender, state.left
        if ender == seat and state.last[1] == "knock":
            pass  # the knock itself: the others' turns follow
        elif ender >= 0:
            left -= 1
        elif state.end == FACE_UP and all(state.up[seat]):
            ender, left = seat, (n - 1 if state.final_turn else 0)
        nxt = state._replace(phase=TURN, turn=(seat + 1) % n, turns=turns, ender=ender,
                             left=left)
        if ender >= 0 and left <= 0:
            return self._score(nxt, called=False)
        if turns >= STALL_LAPS * n:
            return self._score(nxt, called=True)
        return nxt

    def _score(self, state: State, called: bool) -> State:
        rows, cols = SHAPES[state.size]
        points = [layout_score(lay, rows, cols) for lay in state.layouts]
        e = state.ender
        if state.knock_penalty and e >= 0 and points[e] > 0 and any(
                points[s] <= points[e] for s in range(state.players) if s != e):
            points[e] *= 2
        totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        return state._replace(
            phase=OVER if state.hole >= state.holes else BETWEEN, totals=totals,
            hole_points=tuple(points), called=called,
            up=tuple((True,) * state.size for _ in range(state.players)))

    # -- reading --------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> Any:
        return build_view(self, state, seat)

    def common(self, view: Any) -> Common:
        players = len(view.layouts)
        captions = []
        if view.hole:
            captions.append(Caption("golf.hole", (("n", view.hole), ("total", view.holes))))
        if view.ender >= 0:
            captions.append(Caption("golf.ending", (("seat", view.ender),)))
        last = None
        if view.last is not None:
            last = Caption(LAST_KEYS[view.last.kind],
                           (("seat", view.last.seat), ("card", view.last.card)))
        return Common(seat=view.seat, to_act=view.to_act, hand=(), hand_counts=(),
                      teams=tuple(range(players)), scores=view.totals, phase=view.phase,
                      last=last, captions=tuple(captions))

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        best = min(state.totals)
        winners = tuple(s for s in range(state.players) if state.totals[s] == best)
        if len(winners) == state.players:  # everyone level: a draw has no winners
            return Outcome((), state.totals, "golf.draw", draw=True)
        return Outcome(winners, state.totals, "golf.lowest_total")

    def between_hands(self, state: State) -> bool:
        return state.phase == BETWEEN

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Every card ``seat`` cannot see redrawn: the stock, the face-down cards it has not
        peeked at (its own and everyone's), and a stock card another seat holds."""
        pool = list(state.stock)
        slots: list[tuple[int, int]] = []
        for s in range(state.players):
            for i in range(len(state.layouts[s])):
                if not state.up[s][i] and not (s == seat and state.peeked[s][i]):
                    pool.append(state.layouts[s][i])
                    slots.append((s, i))
        hidden_hold = bool(state.holding) and state.from_stock and seat != state.turn
        if hidden_hold:
            pool.append(state.holding)
        rng.shuffle(pool)
        layouts = [list(lay) for lay in state.layouts]
        for s, i in slots:
            layouts[s][i] = pool.pop()
        holding = pool.pop() if hidden_hold else state.holding
        return state._replace(layouts=tuple(tuple(lay) for lay in layouts),
                              stock=tuple(pool), holding=holding, seed=rng.getrandbits(62))


GAME = GolfGame()
