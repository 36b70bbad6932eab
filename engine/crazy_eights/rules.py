"""Crazy Eights (tablebox rules 1.0): the state machine, its actions and their legality.

Rules (docs/rules/crazy_eights.md states them in full): 2 to 6 players (two decks from six,
option ``two_decks_from``); 7 cards each heads-up, else 5. The starter is never an eight (it
is buried at the bottom of the stock and the next card turned). On a turn a player plays a
card of the top card's rank or of the suit to follow, or any eight and then names a suit (a
second step); or draws, by the draw rule in force (until playable, up to three, or one), and
passes once no more drawing is allowed. Drawing when able to play is a toggle. An empty
stock is rebuilt from the discards under the top card (a chance step) when the toggle is on.
A round ends when a hand is empty, or blocked when every player passes in turn with the
stock empty (and nothing to rebuild it from); a blocked round is scored as ``_end_round``
states. Draws and passes are also noted in a public record (``_decline``) for players to
reason from: they are moves everyone saw.

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
from engine.crazy_eights.state import (
    BETWEEN,
    DEAL,
    DECK,
    DRAW,
    DRAW_LIMIT,
    NAME,
    ONE,
    OVER,
    PASS,
    PENALTY,
    PLAY,
    SUITS,
    TWO_DECKS_FROM,
    UNTIL_PLAYABLE,
    UP_TO_THREE,
    WINNER_COLLECTS,
    Deal,
    Draw,
    Last,
    NameSuit,
    Pass,
    Play,
    Reshuffle,
    State,
    hand_value,
    matches,
    sort_hand,
)
from engine.crazy_eights.views import build_view
from engine.discard_pile import reshuffled, shuffled
from engine.errors import IllegalAction
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, Gesture, Presentation, Zone

RULES_VERSION = "tablebox 1.0"

# Stable codes of this game's refusals (errors.py has the shared ones).
NOT_IN_HAND = "not_in_hand"
NO_MATCH = "no_match"
CANNOT_DRAW = "cannot_draw"
CANNOT_PASS = "cannot_pass"
NAME_A_SUIT = "name_a_suit"
CODES = (NOT_IN_HAND, NO_MATCH, CANNOT_DRAW, CANNOT_PASS, NAME_A_SUIT)

NAMES = tuple(NameSuit(s) for s in SUITS)
# A round still going after this many turns per player is called and scored as blocked.
# Computer players stay well inside it (the longest of 300 heads-up rounds, normal v easy:
# 152 turns of the 200); it bounds players drawing by choice for ever (random play does).
STALL_LAPS = 100


def decks_for(players: int, two_decks_from: int = TWO_DECKS_FROM) -> int:
    return 2 if players >= two_decks_from else 1


def deck_for(decks: int) -> tuple[str, ...]:
    return DECK * decks


def hand_size(players: int) -> int:
    return 7 if players == 2 else 5


def shuffle_pending(state: State) -> bool:
    """The stock is empty, the discards under the top can rebuild it, and the toggle is on."""
    return (state.phase == PLAY and state.reshuffle and not state.stock
            and len(state.discard) > 1)


def playable(state: State, seat: int) -> list[str]:
    """The distinct cards of the seat's hand that may go on the pile now."""
    top, suit = state.discard[-1], state.suit
    return sorted({c for c in state.hands[seat] if matches(c, top, suit)},
                  key=state.hands[seat].index)


def may_draw(state: State, has_play: bool) -> bool:
    limit = DRAW_LIMIT[state.draw_rule]
    return (bool(state.stock) and (limit < 0 or state.drawn < limit)
            and (state.draw_when_able or not has_play))


def may_pass(state: State, has_play: bool) -> bool:
    """Pass once no more drawing is allowed; without ``draw_when_able`` a player who can
    play must (the card just drawn included): "must play if able" is the whole rule."""
    return not may_draw(state, has_play) and (not has_play or state.draw_when_able)


# Message keys spelled out (not built from parts), so that the string test finds each one.
LAST_KEYS = {"play": "crazy_eights.last.play", "eight": "crazy_eights.last.eight",
             "draw": "crazy_eights.last.draw", "pass": "crazy_eights.last.pass"}
SUIT_KEYS = {"S": "crazy_eights.suit.S", "H": "crazy_eights.suit.H", "D": "crazy_eights.suit.D",
             "C": "crazy_eights.suit.C"}


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1:])


def _decline(state: State, seat: int, drew: bool) -> State:
    """Note publicly that ``seat`` drew (or passed) while ``state.suit`` was to follow.

    Once the seat has drawn as many cards as it holds since the first such note, the notes
    say nothing about its hand any more and start afresh."""
    declined, since = state.declined[seat], state.since[seat]
    if since >= len(state.hands[seat]):
        declined, since = "", 0
    if state.suit not in declined:
        declined += state.suit
    return state._replace(declined=_set(state.declined, seat, declined),
                          since=_set(state.since, seat, since + drew))


class CrazyEightsGame(Game[State]):
    info = GameInfo(
        id="crazy_eights",
        title="Crazy Eights",
        players=(2, 3, 4, 5, 6),
        default_players=4,
        rules_version=RULES_VERSION,
        summary="Match the top card's rank or suit; eights are wild and name a suit. "
                "Empty your hand first.",
        teams="each for themselves",
        options=(
            Option("draw", "choice", UNTIL_PLAYABLE,
                   "how much a player may draw in a turn before passing",
                   choices=(UNTIL_PLAYABLE, UP_TO_THREE, ONE)),
            Option("draw_when_able", "bool", True,
                   "a player may draw (or pass after drawing) even when able to play"),
            Option("reshuffle", "bool", True,
                   "an empty stock is rebuilt from the discards under the top card"),
            Option("scoring", "choice", WINNER_COLLECTS,
                   "winner_collects: the first out scores the others' cards, most wins; "
                   "penalty: each scores the cards left, fewest wins",
                   choices=(WINNER_COLLECTS, PENALTY)),
            Option("target", "int", 100,
                   "the game ends after the round in which a total reaches this",
                   minimum=1, maximum=1000),
            Option("two_decks_from", "int", TWO_DECKS_FROM,
                   "from this many players two decks are shuffled together (7: always one)",
                   minimum=2, maximum=7),
        ),
        presentation=Presentation(
            family="shedding",
            zones=(Zone("hand", "hand", "hand"), Zone("pile", "piles", "discard"),
                   Zone("totals", "score_sheet", "totals")),
            gestures=(Gesture(("card",), "card", "hand"),),
        ),
    )
    action_types = (Play, NameSuit, Draw, Pass)
    chance_types = (Deal, Reshuffle)

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        zeros = (0,) * players
        return State(
            players=players, draw_rule=str(options.get("draw", UNTIL_PLAYABLE)),
            draw_when_able=bool(options.get("draw_when_able", True)),
            reshuffle=bool(options.get("reshuffle", True)),
            scoring=str(options.get("scoring", WINNER_COLLECTS)),
            target=int(options.get("target", 100)), seed=seed, chances=0, round=0,
            phase=DEAL, hands=((),) * players, stock=(), discard=(), suit="", turn=0,
            dealer=players - 1, drawn=0, passes=0, last=None, totals=zeros, round_points=(),
            blocked=False,
            decks=decks_for(players, int(options.get("two_decks_from", TWO_DECKS_FROM))),
            declined=("",) * players, since=zeros, turns=0, called=False)

    # -- chance ---------------------------------------------------------------------------
    def chance_outcome(self, state: State) -> Deal | Reshuffle | None:
        rng = chance_rng(state.seed, state.chances)
        if state.phase in (DEAL, BETWEEN):
            return Deal(shuffled(rng, deck_for(state.decks)))
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
        n = state.players
        if (not isinstance(outcome, Deal) or not isinstance(outcome.cards, tuple)
                or Counter(outcome.cards) != Counter(deck_for(state.decks))):
            raise IllegalAction(errors.BAD_CHANCE, "a deal lists every card of the deck once")
        size = hand_size(n)
        cards = outcome.cards
        hands = tuple(sort_hand(cards[s:size * n:n]) for s in range(n))
        stock = list(cards[size * n:])
        starter = stock.pop(0)
        while starter[0] == "8":  # bury it and turn the next (never an eight to start)
            stock.append(starter)
            starter = stock.pop(0)
        dealer = (state.dealer + 1) % n
        return state._replace(
            chances=state.chances + 1, round=state.round + 1, phase=PLAY, hands=hands,
            stock=tuple(stock), discard=(starter,), suit=starter[1], turn=(dealer + 1) % n,
            dealer=dealer, drawn=0, passes=0, last=None, blocked=False,
            declined=("",) * n, since=(0,) * n, turns=0, called=False)

    # -- play -----------------------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        if state.phase == NAME or (state.phase == PLAY and not shuffle_pending(state)):
            return (state.turn,)
        return ()

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if seat != state.turn:
            return ()
        if state.phase == NAME:
            return NAMES
        if state.phase != PLAY or shuffle_pending(state):
            return ()
        plays = playable(state, seat)
        out: list[Any] = [Play(c) for c in plays]
        if may_draw(state, bool(plays)):
            out.append(DRAW)
        if may_pass(state, bool(plays)):
            out.append(PASS)
        return tuple(out)

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.phase == OVER:
            raise IllegalAction(errors.GAME_OVER, "the game is over")
        if state.phase not in (PLAY, NAME) or shuffle_pending(state):
            raise IllegalAction(errors.CHANCE_PENDING, "the cards are being dealt")
        if seat != state.turn:
            raise IllegalAction(errors.NOT_YOUR_TURN, f"seat {state.turn} is to act")
        if state.phase == NAME:
            if not isinstance(action, NameSuit) or action.suit not in SUITS:
                raise IllegalAction(NAME_A_SUIT, "name the suit to follow: S, H, D or C")
            return self._turn_over(state._replace(
                phase=PLAY, suit=action.suit, turn=(seat + 1) % state.players,
                last=Last(seat, "eight", state.discard[-1], action.suit)))
        has_play = bool(playable(state, seat))
        if isinstance(action, Play):
            return self._play(state, seat, action)
        if isinstance(action, Draw):
            if not may_draw(state, has_play):
                raise IllegalAction(CANNOT_DRAW, "no more drawing this turn")
            hands = list(state.hands)
            hands[seat] = sort_hand((*hands[seat], state.stock[0]))
            return _decline(state, seat, drew=True)._replace(
                hands=tuple(hands), stock=state.stock[1:], drawn=state.drawn + 1, passes=0,
                last=Last(seat, "draw", "", ""))
        if isinstance(action, Pass):
            if not may_pass(state, has_play):
                raise IllegalAction(CANNOT_PASS, "draw or play first")
            passes = state.passes + 1 if not state.stock else 0
            nxt = _decline(state, seat, drew=False)._replace(
                turn=(seat + 1) % state.players, drawn=0, passes=passes,
                last=Last(seat, "pass", "", ""))
            if passes >= state.players:
                return self._end_round(nxt, None)
            return self._turn_over(nxt)
        if isinstance(action, NameSuit):
            raise IllegalAction(errors.ILLEGAL_ACTION, "a suit is named only after an eight")
        raise IllegalAction(errors.ILLEGAL_ACTION, "play a card, draw or pass")

    def _play(self, state: State, seat: int, action: Play) -> State:
        card = action.card
        hand = state.hands[seat]
        if not isinstance(card, str) or card not in hand:
            raise IllegalAction(NOT_IN_HAND, "you do not hold that card")
        if not matches(card, state.discard[-1], state.suit):
            raise IllegalAction(NO_MATCH, "match the rank or the suit, or play an eight")
        i = hand.index(card)
        hands = list(state.hands)
        hands[seat] = hand[:i] + hand[i + 1:]
        eight = card[0] == "8"
        since = state.since
        if eight or card[1] in state.declined[seat]:  # shown to be one drawn since
            since = _set(since, seat, max(0, since[seat] - 1))
        nxt = state._replace(
            since=since,
            hands=tuple(hands), discard=(*state.discard, card), suit=card[1], drawn=0,
            passes=0, last=Last(seat, "play", card, ""),
            phase=NAME if eight and hands[seat] else PLAY,
            turn=seat if eight and hands[seat] else (seat + 1) % state.players)
        if not hands[seat]:
            return self._end_round(nxt, seat)
        return nxt if eight else self._turn_over(nxt)

    def _turn_over(self, state: State) -> State:
        """A turn has ended: count it, and call a round that has lasted too long."""
        turns = state.turns + 1
        if turns >= STALL_LAPS * state.players:
            return self._end_round(state._replace(turns=turns), None, called=True)
        return state._replace(turns=turns)

    def _end_round(self, state: State, winner: int | None, called: bool = False) -> State:
        """Score a round that ``winner`` went out of, or (``None``) that ended blocked.

        Blocked, winner-collects: the lowest hand scores the sum of the differences between
        each other hand and its own; equal lowest hands score nothing. Penalty scoring is the
        same either way: each seat scores what its own hand holds. A round ``called`` by the
        stall protection is scored as blocked."""
        n = state.players
        values = [hand_value(h) for h in state.hands]
        points = [0] * n
        if state.scoring == PENALTY:
            points = values
        elif winner is not None:
            points[winner] = sum(values)
        else:
            low = min(values)
            lowest = [s for s in range(n) if values[s] == low]
            if len(lowest) == 1:
                points[lowest[0]] = sum(v - low for v in values)
        totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        over = max(totals) >= state.target
        return state._replace(phase=OVER if over else BETWEEN, totals=totals,
                              round_points=tuple(points), blocked=winner is None, drawn=0,
                              called=called)

    # -- reading --------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> Any:
        return build_view(self, state, seat)

    def common(self, view: Any) -> Common:
        players = len(view.hand_counts)
        captions = []
        if view.round:
            captions.append(Caption("crazy_eights.round", (("n", view.round),)))
            captions.append(Caption("crazy_eights.target", (("n", view.target),)))
        if view.suit:
            captions.append(Caption("crazy_eights.suit", (("suit", SUIT_KEYS[view.suit]),)))
        if view.called and view.phase in (BETWEEN, OVER):
            captions.append(Caption("crazy_eights.called", (("n", STALL_LAPS),)))
        elif view.blocked and view.phase in (BETWEEN, OVER):
            captions.append(Caption("crazy_eights.blocked", ()))
        last = None
        if view.last is not None:
            lm = view.last
            last = Caption(LAST_KEYS[lm.kind],
                           (("seat", lm.seat), ("card", lm.card), ("suit", lm.suit)))
        return Common(seat=view.seat, to_act=view.to_act, hand=view.hand,
                      hand_counts=view.hand_counts, teams=tuple(range(players)),
                      scores=view.totals, phase=view.phase, last=last,
                      captions=tuple(captions))

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals = state.totals
        if state.scoring == PENALTY:
            best = min(totals)
            reason = "crazy_eights.fewest_points"
        else:
            best = max(totals)
            reason = "crazy_eights.most_points"
        winners = tuple(s for s in range(state.players) if totals[s] == best)
        if len(winners) == state.players:  # everyone level: a draw has no winners
            return Outcome((), totals, "crazy_eights.draw", draw=True)
        return Outcome(winners, totals, reason)

    def between_hands(self, state: State) -> bool:
        return state.phase == BETWEEN

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Other hands and the stock redrawn from the cards ``seat`` cannot see, sizes kept."""
        pool = list(state.stock)
        for s, h in enumerate(state.hands):
            if s != seat:
                pool.extend(h)
        rng.shuffle(pool)
        hands = []
        for s, h in enumerate(state.hands):
            if s == seat:
                hands.append(h)
            else:
                hands.append(sort_hand(pool[:len(h)]))
                del pool[:len(h)]
        return state._replace(hands=tuple(hands), stock=tuple(pool),
                              seed=rng.getrandbits(62))


GAME = CrazyEightsGame()
__all__ = ["GAME", "ONE", "UP_TO_THREE"]
