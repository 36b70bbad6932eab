"""President (CardVerse rules 1.1.0): the state machine, its actions, and its legality.

Rules (docs/rules/president.md states them in full): 3 to 6 players share the whole deck;
each turn one plays 1 to 4 cards of one rank, the same number as the trick's top play and of
a strictly higher rank in the order in force, or passes, which is final until the trick is
cleared. A four of a kind reverses the order (option ``revolution``) until the round ends.
The first out is President, the last Scum; points run from ``players`` down to 1 per round.
From the second round the Scum's two best cards go to the President, who gives two back
(and with four or more players the Vice-Scum's best card to the Vice-President, who gives
one back); then the Scum leads.

States are immutable ``State`` tuples of plain ints (hands are 52-bit masks, see
``engine.president.cards``) so that a step costs a few microseconds: random self-play and the
hard player's rollouts run through here. This module owns legality; it must never look at a
view, do I/O, read the clock, or use any generator but the ones it is given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any, NoReturn

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, Gesture, Presentation, Zone
from engine.president import cards as pc
from engine.president.cards import CARD_OF, CODES, FULL_DECK, NRANKS, POPCOUNT4
from engine.president.state import (
    BETWEEN,
    DEAL,
    EXCHANGE,
    OVER,
    PASS,
    PLAY,
    Deal,
    GiveBack,
    Leg,
    Pass,
    Play,
    PlayInfo,
    State,
)
from engine.president.views import build_view

RULES_VERSION = "CardVerse 1.1.0"

# Stable codes of this game's refusals (errors.py has the shared ones).
NOT_IN_HAND = "not_in_hand"
WRONG_COUNT = "wrong_count"
NOT_HIGHER = "not_higher"
ONE_RANK = "one_rank"
LEADER_MUST_PLAY = "leader_must_play"
NOT_CANONICAL = "not_canonical"



def _submasks(m: int) -> list[int]:
    """Non-empty submasks of a 4-bit suit mask, fewest cards first, then by suits."""
    return sorted((s for s in range(1, 16) if s & m == s), key=lambda s: (POPCOUNT4[s], s))


# Every possible play is built once: legal_actions hands out these shared instances.
_PLAY: list[list[Play | None]] = [[None] * 16 for _ in range(NRANKS)]
PLAY_INFO: dict[Play, PlayInfo] = {}
for _r in range(NRANKS):
    for _m in range(1, 16):
        _p = Play(pc.codes(_m << (4 * _r)))
        _PLAY[_r][_m] = _p
        PLAY_INFO[_p] = PlayInfo(_r, _m << (4 * _r), POPCOUNT4[_m], _p)
_BY_ID: dict[int, PlayInfo] = {id(i.play): i for i in PLAY_INFO.values()}
# _LEADS[r][m]: every play from suit mask m of rank r, fewest cards first.
_LEADS: list[list[tuple[Play, ...]]] = [
    [tuple(_PLAY[r][s] for s in _submasks(m)) for m in range(16)] for r in range(NRANKS)  # type: ignore[misc]
]
# Byte tables: a hand mask read a byte (two ranks) at a time. _LEAD_BYTES[c][b] lists every
# play of ranks 2c and 2c+1 whose suits are in byte b, weakest first; _FOLLOW_UP[n][c][b]
# those of n cards in the same order, _FOLLOW_DOWN[n][c][b] the stronger rank first (for the
# reversed order). legal_actions is then seven lookups and a tuple concatenation.
def _byte_table(size: int | None, down: bool) -> list[list[tuple[Play, ...]]]:
    table = []
    for c in range(7):
        row = []
        for b in range(256):
            ranks = [(2 * c, b & 15), (2 * c + 1, b >> 4)]
            if down:
                ranks.reverse()
            row.append(tuple(p for r, m in ranks if r < NRANKS
                             for p in _LEADS[r][m] if size is None or PLAY_INFO[p].size == size))
        table.append(row)
    return table


_LEAD_BYTES = _byte_table(None, False)
_FOLLOW_UP = [_byte_table(n, False) if n else [] for n in range(5)]
_FOLLOW_DOWN = [_byte_table(n, True) if n else [] for n in range(5)]
_PASS_ONLY = (PASS,)
_tuple_new = tuple.__new__  # builds a State without NamedTuple's keyword wrapper (hot path)


# -- state ----------------------------------------------------------------------------------
def _next_table(players: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for mask in range(1 << players):
        row = []
        for seat in range(players):
            later = [(seat + i) % players for i in range(1, players + 1)]
            row.append(next((s for s in later if mask >> s & 1), -1))
        out.append(tuple(row))
    return tuple(out)


MAX_PLAYERS = 6
# NEXT[players][mask][seat]: the first seat after ``seat`` clockwise whose bit is in ``mask``.
NEXT = tuple(_next_table(n) for n in range(MAX_PLAYERS + 1))


def next_in(mask: int, seat: int, players: int) -> int:
    """The first seat after ``seat`` (clockwise) whose bit is in ``mask`` (must be non-empty)."""
    s = NEXT[players][mask][seat]
    if s < 0:
        raise AssertionError("no seat in mask")
    return s


def _next_turn(n: int, out: int, passed: int, last: int, seat: int) -> tuple[int, int]:
    """Who acts after ``seat``, and the passes, when ``last`` made the top play.

    The next seat clockwise that is neither out nor passed nor ``last``; if there is none,
    ``last`` has won the trick and leads (or, if it has finished, the next active seat): the
    result is then ``~leader`` with the passes cleared."""
    everyone = (1 << n) - 1
    contenders = everyone & ~out & ~passed & ~(1 << last)
    if contenders:
        return NEXT[n][contenders][seat], passed
    return ~(NEXT[n][everyone & ~out][last] if out >> last & 1 else last), 0


def split_hidden(pool: int, sizes: Mapping[int, int], rng: random.Random) -> dict[int, int]:
    """Deal the cards of ``pool`` at random to the seats of ``sizes`` (seat -> card count)."""
    cards = pc.cards_of(pool)
    rng.shuffle(cards)
    out: dict[int, int] = {}
    i = 0
    for seat, n in sizes.items():
        out[seat] = pc.mask_of(cards[i : i + n])
        i += n
    if i != len(cards):
        raise ValueError("sizes do not add up to the pool")
    return out


def known_holdings(state: State, seat: int) -> dict[int, int]:
    """Cards ``seat`` knows are in another hand: those it gave in this round's exchange, while
    they are neither played nor back in its own hand. Nothing else about a hand is certain."""
    out: dict[int, int] = {}
    for leg in state.legs:
        if leg.giver == seat:
            mine, other, gave = leg.giver, leg.receiver, leg.given
        elif leg.receiver == seat and leg.back >= 0:
            mine, other, gave = leg.receiver, leg.giver, leg.back
        else:
            continue
        still = gave & ~state.played & ~state.hands[mine]
        if still:
            out[other] = out.get(other, 0) | still
    return out


# -- the game -------------------------------------------------------------------------------
class PresidentGame(Game[State]):
    info = GameInfo(
        id="president",
        title="President",
        players=(3, 4, 5, 6),
        default_players=4,
        rules_version=RULES_VERSION,
        summary="Shed your hand first: sets of one rank, each higher than the last; "
                "four of a kind starts a revolution.",
        teams="each for themselves",
        options=(
            Option("revolution", "bool", True,
                   "four of a kind reverses the rank order until the round ends"),
            Option("rounds", "int", 1,
                   "rounds in the game; from the second, Scum and President exchange cards",
                   minimum=1, maximum=50),
        ),
        presentation=Presentation(
            family="shedding",
            zones=(Zone("hand", "hand", "hand"), Zone("trick", "trick", "trick"),
                   Zone("played", "piles", "played"), Zone("places", "score_sheet", "places")),
            gestures=(Gesture(("cards",), "cards", "hand"),),
        ),
    )
    action_types = (Play, Pass, GiveBack)
    chance_types = (Deal,)

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        zeros = (0,) * players
        return State(players, bool(options.get("revolution", True)), int(options.get("rounds", 1)),
                     seed, 0, 0, DEAL, zeros, 0, (), 0, False, 0, (), 0, zeros, (), (), ())

    # -- chance ---------------------------------------------------------------------------
    def chance_outcome(self, state: State) -> Deal | None:
        if state.phase != DEAL and state.phase != BETWEEN:
            return None
        deck = list(CODES)
        chance_rng(state.seed, state.chances).shuffle(deck)
        return Deal(tuple(deck))

    def apply_chance(self, state: State, outcome: Any) -> State:
        if state.phase != DEAL and state.phase != BETWEEN:
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no deal is pending")
        if (not isinstance(outcome, Deal) or len(outcome.cards) != 52
                or pc.parse(outcome.cards) != FULL_DECK):
            raise IllegalAction(errors.BAD_CHANCE, "a deal lists each of the 52 cards once")
        n = state.players
        hands = [0] * n
        for k, code in enumerate(outcome.cards):
            hands[k % n] |= 1 << CARD_OF[code]
        rnd = state.round + 1
        previous = state.places if rnd > 1 else ()
        legs: tuple[Leg, ...] = ()
        if previous:
            pairs = [(previous[-1], previous[0], 2)]
            if n >= 4:
                pairs.append((previous[-2], previous[1], 1))
            made = []
            for giver, receiver, count in pairs:
                given = pc.best_cards(hands[giver], count)
                hands[giver] ^= given
                hands[receiver] |= given
                made.append(Leg(giver, receiver, given, -1, count))
            legs = tuple(made)
        return State(
            n, state.revolution, state.rounds, state.seed, state.chances + 1, rnd,
            EXCHANGE if legs else PLAY, tuple(hands), previous[-1] if previous else 0,
            (), 0, False, 0, (), 0, state.totals, (), previous, legs,
        )

    # -- play -----------------------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        if state.phase == PLAY:
            return (state.turn,)
        if state.phase == EXCHANGE:
            return tuple(leg.receiver for leg in state.legs if leg.back < 0)
        return ()

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if state.phase == PLAY:
            if seat != state.turn:
                return ()
            h = state.hands[seat]
            if not state.trick:
                t8 = _LEAD_BYTES
                return (t8[0][h & 255] + t8[1][h >> 8 & 255] + t8[2][h >> 16 & 255]
                        + t8[3][h >> 24 & 255] + t8[4][h >> 32 & 255] + t8[5][h >> 40 & 255]
                        + t8[6][h >> 48])
            top = state.trick[-1][1]
            t = top.rank
            if state.reversed:  # only ranks below t beat it; strongest of them last
                h &= (1 << (t << 2)) - 1
                t8 = _FOLLOW_DOWN[top.size]
                return (t8[6][h >> 48] + t8[5][h >> 40 & 255] + t8[4][h >> 32 & 255]
                        + t8[3][h >> 24 & 255] + t8[2][h >> 16 & 255] + t8[1][h >> 8 & 255]
                        + t8[0][h & 255] + _PASS_ONLY)
            h &= ~((1 << ((t + 1) << 2)) - 1)
            t8 = _FOLLOW_UP[top.size]
            return (t8[0][h & 255] + t8[1][h >> 8 & 255] + t8[2][h >> 16 & 255]
                    + t8[3][h >> 24 & 255] + t8[4][h >> 32 & 255] + t8[5][h >> 40 & 255]
                    + t8[6][h >> 48] + _PASS_ONLY)
        if state.phase == EXCHANGE:
            for leg in state.legs:
                if leg.receiver == seat and leg.back < 0:
                    held = pc.cards_of(state.hands[seat])
                    return tuple(GiveBack(tuple(CODES[c] for c in combo))
                                 for combo in combinations(held, leg.size))
        return ()

    def apply(self, state: State, seat: int, action: Any) -> State:
        phase = state.phase
        if phase == PLAY:
            if seat != state.turn:
                raise IllegalAction(errors.NOT_YOUR_TURN, f"seat {state.turn} is to play")
            if isinstance(action, Play):
                return self._play(state, seat, action)
            if isinstance(action, Pass):
                return self._pass(state, seat)
            raise IllegalAction(errors.ILLEGAL_ACTION, "play cards or pass")
        if phase == EXCHANGE:
            return self._give_back(state, seat, action)
        if phase == OVER:
            raise IllegalAction(errors.GAME_OVER, "the game is over")
        raise IllegalAction(errors.CHANCE_PENDING, "the deal comes first")

    def _play(self, state: State, seat: int, action: Play) -> State:
        info = _BY_ID.get(id(action))  # the shared instances legal_actions hands out
        if info is None or info.play is not action:
            try:
                info = PLAY_INFO.get(action)
            except TypeError:  # cards not a tuple: only when built by hand, never decoded
                info = None
        if info is None:
            self._explain_bad_play(action)
        rank, mask, count, _play = info
        hand = state.hands[seat]
        if hand & mask != mask:
            raise IllegalAction(NOT_IN_HAND, "you do not hold those cards")
        trick = state.trick
        if trick:
            top = trick[-1][1]
            if count != top.size:
                raise IllegalAction(WRONG_COUNT, f"play {top.size} cards or pass")
            if not (rank < top.rank if state.reversed else rank > top.rank):
                raise IllegalAction(NOT_HIGHER, "play a strictly higher rank or pass")
        hand ^= mask
        hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
        reversed_order = state.reversed ^ (count == 4 and state.revolution)
        played = state.played | mask
        trick = (*trick, (seat, info))
        n = state.players
        out, places = state.out, state.places
        if not hand:
            out |= 1 << seat
            places = (*places, seat)
            if len(places) == n - 1:
                return self._end_round(state, hands, trick, reversed_order, out, places, played)
        turn, passed = _next_turn(n, out, state.passed, seat, seat)
        if turn < 0:  # nobody left to answer: the trick is won and cleared
            turn, trick = ~turn, ()
        return _tuple_new(State, (
            n, state.revolution, state.rounds, state.seed, state.chances, state.round, PLAY,
            hands, turn, trick, passed, reversed_order, out, places, played, state.totals,
            state.round_points, state.previous, state.legs))

    def _pass(self, state: State, seat: int) -> State:
        trick = state.trick
        if not trick:
            raise IllegalAction(LEADER_MUST_PLAY, "the leader must play")
        n = state.players
        passed = state.passed | (1 << seat)
        out = state.out
        turn, passed = _next_turn(n, out, passed, trick[-1][0], seat)
        if turn < 0:
            turn, trick = ~turn, ()
        return _tuple_new(State, (
            n, state.revolution, state.rounds, state.seed, state.chances, state.round, PLAY,
            state.hands, turn, trick, passed, state.reversed, out, state.places, state.played,
            state.totals, state.round_points, state.previous, state.legs))

    def _end_round(self, state: State, hands: tuple[int, ...],
                   trick: tuple[tuple[int, PlayInfo], ...],
                   reversed_order: bool, out: int, places: tuple[int, ...], played: int) -> State:
        n = state.players
        last = next(s for s in range(n) if not out >> s & 1)
        places = (*places, last)
        points = [0] * n
        for i, s in enumerate(places):
            points[s] = n - i
        totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
        phase = OVER if state.round >= state.rounds else BETWEEN
        return State(n, state.revolution, state.rounds, state.seed, state.chances, state.round,
                     phase, hands, 0, trick, 0, reversed_order, out | (1 << last), places, played,
                     totals, tuple(points), state.previous, state.legs)

    def _give_back(self, state: State, seat: int, action: Any) -> State:
        legs = list(state.legs)
        i = next((i for i, leg in enumerate(legs) if leg.receiver == seat and leg.back < 0), None)
        if i is None:
            raise IllegalAction(errors.NOT_YOUR_TURN, "only the President and Vice-President "
                                                      "give cards back now")
        if not isinstance(action, GiveBack):
            raise IllegalAction(errors.ILLEGAL_ACTION, "give cards back first")
        leg = legs[i]
        mask = pc.parse(action.cards)
        if mask is None:
            raise IllegalAction(NOT_IN_HAND, "name distinct cards of your hand")
        if len(action.cards) != leg.size:
            raise IllegalAction(WRONG_COUNT, f"give back exactly {leg.size}")
        hands = list(state.hands)
        if hands[seat] & mask != mask:
            raise IllegalAction(NOT_IN_HAND, "you do not hold those cards")
        if tuple(action.cards) != pc.codes(mask):
            raise IllegalAction(NOT_CANONICAL, "list the cards weakest first, as offered")
        hands[seat] ^= mask
        hands[leg.giver] |= mask
        legs[i] = leg._replace(back=mask)
        done = all(leg.back >= 0 for leg in legs)
        return state._replace(hands=tuple(hands), legs=tuple(legs),
                              phase=PLAY if done else EXCHANGE)

    @staticmethod
    def _explain_bad_play(action: Play) -> NoReturn:
        cards = action.cards if isinstance(action.cards, tuple) else ()
        mask = pc.parse(cards)
        if mask is None or not 1 <= len(cards) <= 4:
            raise IllegalAction(errors.ILLEGAL_ACTION, "play 1 to 4 distinct cards")
        if len({c[0] for c in cards}) != 1:
            raise IllegalAction(ONE_RANK, "the cards of a play are all of one rank")
        raise IllegalAction(NOT_CANONICAL, "list the cards weakest suit first, as offered")

    # -- reading --------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> Any:
        return build_view(self, state, seat)

    def common(self, view: Any) -> Common:
        players = len(view.hand_counts)
        return Common(
            seat=view.seat, to_act=view.to_act, hand=view.hand, hand_counts=view.hand_counts,
            teams=tuple(range(players)),
            scores=view.totals if view.totals else (0,) * players, phase=view.phase,
            captions=(Caption("president.round", (("n", view.round), ("total", view.rounds))),)
            if view.round else (), last=_last(view),
            seat_notes=tuple(Caption("president.passed") if s in view.passed else None
                             for s in range(players)),
            badges=tuple(_badges(view, s) for s in range(players)), result=_result(view))

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals = state.totals
        best = max(totals)
        leaders = [s for s in range(state.players) if totals[s] == best]
        if len(leaders) == 1:
            return Outcome((leaders[0],), totals, "president.most_points")
        # Equal totals: the better place in the last round decides (so there is no draw).
        winner = next(s for s in state.places if s in leaders)
        return Outcome((winner,), totals, "president.tie_broken_by_last_round")

    def between_hands(self, state: State) -> bool:
        return state.phase == BETWEEN

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Other hands redealt keeping their sizes and the cards ``seat`` knows they hold."""
        known = known_holdings(state, seat) if seat is not None else {}
        fixed = 0
        for m in known.values():
            fixed |= m
        pool = 0
        sizes: dict[int, int] = {}
        for s, hand in enumerate(state.hands):
            if s != seat:
                pool |= hand
                sizes[s] = hand.bit_count() - known.get(s, 0).bit_count()
        dealt = split_hidden(pool & ~fixed, sizes, rng)
        hands = tuple(hand if s == seat else dealt[s] | known.get(s, 0)
                      for s, hand in enumerate(state.hands))
        return state._replace(hands=hands, seed=rng.getrandbits(62))


GAME = PresidentGame()


# -- the common part's words (Game.common): from a seat's view only ------------------------------
def _badges(view: Any, seat: int) -> tuple[Caption, ...]:
    """Last round's title while this one is played, and the title this round's place gives once
    the seat is out (alone once the round is over: it is the title now)."""
    before = [Caption(f"president.title.{p.title}") for p in view.previous_places
              if p.seat == seat and view.phase not in ("between", "over")]
    out = [Caption("president.finished", (("title", f"president.title.{p.title}"),))
           for p in view.places if p.seat == seat]
    return (*before, *out)


def _result(view: Any) -> tuple[Caption, ...]:
    """Between rounds: every place, its points this round and the total."""
    if view.phase not in ("between", "over"):
        return ()
    points = view.round_points
    return (Caption("president.round_over", (("n", view.round),)), *(
        Caption("president.place_line", (("seat", p.seat), ("title", f"president.title.{p.title}"),
                                         ("points", points[p.seat] if points else p.points),
                                         ("total", view.totals[p.seat])))
        for p in view.places))


def _last(view: Any) -> Caption | None:
    """The last play of the trick, or a trick cleared. A pass is a seat note: the view cannot
    tell whether a seat passed before or after the play in front of it."""
    if view.trick:
        p = view.trick[-1]
        return Caption(f"president.last.play_{len(p.cards)}",
                       (("seat", p.seat), *((f"c{i + 1}", c) for i, c in enumerate(p.cards))))
    if view.phase == "play" and view.played:
        return Caption("president.last.cleared")
    return None
