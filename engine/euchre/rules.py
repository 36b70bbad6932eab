"""Euchre's rules: the state machine, its actions and chance steps, and each seat's view.

Four players, seats 0 and 2 against 1 and 3. Each hand is one chance step (the deal, with the
dealer for the first hand cut by chance), two rounds of bidding, the dealer's discard when the
turned card is ordered up, optional defending alone, then five tricks; the hand is scored and
the deal passes left. ``docs/rules/euchre.md`` states exactly what is enforced; keep the two in
step.

States are immutable by contract: ``apply`` builds a new state and never writes to the old one
(the only slots written after construction are ``_legal``, ``_deal`` and ``_trick_views``,
memos of ``legal_actions``, ``chance_outcome`` and ``view``). Cards
are ints and hands bit masks internally (``engine.euchre.tables``); actions, chance outcomes and
views use the two-character codes.

This module must never do I/O, read the clock, use the global random generator, or put a card
in a view that the seat may not see: views are built field by field from what is public plus
the seat's own hand (and, for the dealer alone, the dealer's discard).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.codec import make_frozen
from engine.errors import IllegalAction, OptionError
from engine.euchre.tables import (
    BIT,
    CARD,
    CODE,
    DECK_CARDS,
    DECK_MASK,
    ESUIT,
    NO_TRUMP,
    POWER,
    STRENGTH,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    cards_of,
    left_bower,
    right_bower,
)
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, Gesture, Presentation, Zone
from engine.tricks import TrickPlay as TrickPlay
from engine.tricks import byte_table, mask_actions, shuffled_order

HAND_SIZE = 5
TRICKS = 5
# The traditional packets: 3-2-3-2 round the table from the dealer's left, then 2-3-2-3. A
# pinned deal may also use the mirror pattern (2-3 first); nothing else.
PACKETS = (3, 2, 3, 2, 2, 3, 2, 3)
PACKETS_MIRROR = (2, 3, 2, 3, 3, 2, 3, 2)

# Stable codes of Euchre's own refusals (the shared ones live in engine.errors).
MUST_FOLLOW_SUIT = "must_follow_suit"
CARD_NOT_IN_HAND = "card_not_in_hand"
SUIT_TURNED_DOWN = "suit_turned_down"
DEALER_MUST_NAME = "dealer_must_name"
ALONE_NOT_ALLOWED = "alone_not_allowed"
WRONG_PHASE = "wrong_phase"

# Message keys.
CAPTION_RIGHT = "euchre.card.right_bower"
CAPTION_LEFT = "euchre.card.left_bower"
REASON_TARGET = "euchre.reached_target"


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pass:
    """Pass in either bidding round."""


@dataclass(frozen=True)
class OrderUp:
    """Round one: make the turned card's suit trump (the dealer's own call is "pick it up")."""

    alone: bool = False


@dataclass(frozen=True)
class NameTrump:
    """Round two: name a suit other than the turned-down one."""

    suit: str
    alone: bool = False


@dataclass(frozen=True)
class Discard:
    """The dealer, holding six after taking the turned card, buries one face down."""

    card: str


@dataclass(frozen=True)
class DefendAlone:
    """A defender against a lone maker plays alone too (option ``defend_alone``)."""


@dataclass(frozen=True)
class DefendWithPartner:
    """Decline to defend alone."""


@dataclass(frozen=True)
class Play:
    card: str


Action = Pass | OrderUp | NameTrump | Discard | DefendAlone | DefendWithPartner | Play


# -- chance ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One hand's deal: the eight packets in the order dealt, then the turned card and the rest.

    Packet ``i`` goes to seat ``(dealer + 1 + i) % 4``: clockwise from the dealer's left, twice
    round, sized 3-2-3-2 then 2-3-2-3 (or the mirror). ``dealer`` must be the seat whose deal
    it is; for the first hand it is the cut for deal, drawn by chance too.
    """

    dealer: int
    packets: tuple[tuple[str, ...], ...]
    turned: str
    rest: tuple[str, ...]


# -- views -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bid:
    """One call in the bidding. ``call`` is ``pass``, ``order_up`` or ``name``."""

    seat: int
    round: int
    call: str
    suit: str | None = None
    alone: bool = False


@dataclass(frozen=True)
class TrickView:
    leader: int
    plays: tuple[TrickPlay, ...]
    winner: int


@dataclass(frozen=True)
class HandCard:
    card: str
    caption: str | None = None  # a message key for the bowers once trump is named


@dataclass(frozen=True)
class HandResult:
    """How a hand ended. ``result`` is a message key; ``points`` are per side, this hand only."""

    hand: int
    dealer: int
    result: str
    trump: str | None
    maker: int | None
    alone: bool
    lone_defender: int | None
    tricks: tuple[int, int]
    points: tuple[int, int]
    score: tuple[int, int]


@dataclass(frozen=True)
class EuchreView:
    seat: int | None
    side: int | None
    phase: str  # deal, round_one, round_two, discard, defend_alone, play, hand_over, game_over
    to_act: tuple[int, ...]
    target: int
    deck: int
    stick_the_dealer: bool
    going_alone: bool
    defend_alone: bool
    hand_number: int
    dealer: int | None
    turned: str | None
    turned_status: str | None  # up, taken (by the dealer), turned_down, set_aside
    bids: tuple[Bid, ...]
    trump: str | None
    maker: int | None
    alone: bool
    lone_defender: int | None
    sitting_out: tuple[int, ...]
    leader: int | None
    trick: tuple[TrickPlay, ...]
    tricks: tuple[TrickView, ...]
    tricks_won: tuple[int, int]
    score: tuple[int, int]
    hand: tuple[HandCard, ...]
    hand_counts: tuple[int, ...]
    discard: str | None  # the dealer's own discard, in the dealer's view only
    last_hand: HandResult | None


# -- interned actions and view pieces: legal_actions returns these very objects --------------
PASS = Pass()
ORDER_UP = OrderUp(False)
ORDER_UP_ALONE = OrderUp(True)
DEFEND_ALONE = DefendAlone()
DEFEND_WITH_PARTNER = DefendWithPartner()
NAME = tuple((NameTrump(s, False), NameTrump(s, True)) for s in SUITS)
# ROUND2_NAMES[barred][alone allowed]: what may be named in round two, suit by suit.
ROUND2_NAMES = tuple(
    tuple(
        tuple(a for s in range(4) if s != barred for a in (NAME[s] if alone else NAME[s][:1]))
        for alone in (False, True)
    )
    for barred in range(4)
)
PLAY = tuple(Play(CODE[c]) for c in range(32))
DISCARD = tuple(Discard(CODE[c]) for c in range(32))
PASS_BID = tuple({r: Bid(seat, r, "pass") for r in (1, 2)} for seat in range(4))
MAKE_BID = tuple(
    {
        r: tuple(
            (Bid(seat, r, call, SUITS[t], False), Bid(seat, r, call, SUITS[t], True))
            for t in range(4)
        )
        for r, call in ((1, "order_up"), (2, "name"))
    }
    for seat in range(4)
)
PLAYED = tuple(tuple(TrickPlay(seat, CODE[c]) for c in range(32)) for seat in range(4))


PLAY_BYTES = byte_table(PLAY)
DISCARD_BYTES = byte_table(DISCARD)


# NEXT[out][seat]: the next seat clockwise that plays this hand (``out`` is a seat bit mask).
NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        next(((s + k) % 4 for k in range(1, 5) if not out >> ((s + k) % 4) & 1), s)
        for s in range(4)
    )
    for out in range(16)
)
SEAT_TUPLE = ((0,), (1,), (2,), (3,))
# DECK_BITS[deck][code]: the bit of each card code of that deck.
DECK_BITS = {n: {CODE[c]: BIT[c] for c in cards} for n, cards in DECK_CARDS.items()}

# OUT_SEATS[out]: the seats set in the seat bit mask ``out``, as the view lists them.
OUT_SEATS = tuple(tuple(s for s in range(4) if out >> s & 1) for out in range(16))


def _hand_order(trump: int, card: int) -> int:
    """Where a card sorts in a hand: trumps first, then suit by suit, high to low (no two
    cards of a deck tie, so one int per card is the whole order)."""
    suit = ESUIT[trump][card]
    return (suit != trump) * 1000 + suit * 100 - STRENGTH[trump][card]


def _hand_card(trump: int, card: int) -> HandCard:
    caption = None
    if trump != NO_TRUMP:
        if card == right_bower(trump):
            caption = CAPTION_RIGHT
        elif card == left_bower(trump):
            caption = CAPTION_LEFT
    return HandCard(CODE[card], caption)


# HAND_ORDER[trump][card] and HAND_CARD[trump][card] (trump 4: none named yet): the view shows
# hands with these very objects, built once, in this order.
HAND_ORDER = tuple(tuple(_hand_order(t, c) for c in range(32)) for t in range(5))
HAND_CARD = tuple(tuple(_hand_card(t, c) for c in range(32)) for t in range(5))

# Phases.
DEAL, ROUND1, ROUND2, DISCARDING, DEFENDING, PLAYING, OVER = range(7)
TURNED_UP, TURNED_TAKEN, TURNED_DOWN, TURNED_ASIDE = range(4)
TURNED_NAMES = ("up", "taken", "turned_down", "set_aside")
PHASE_NAMES = ("deal", "round_one", "round_two", "discard", "defend_alone", "play", "game_over")


@dataclass(frozen=True)
class Rules:
    """The table options, parsed once."""

    deck: int
    target: int
    stick_the_dealer: bool
    going_alone: bool
    defend_alone: bool
    seed: int


class HandInfo:
    """Facts of the hand in progress that change only during bidding (shared by play states)."""

    __slots__ = (
        "active", "alone", "bids", "dealer", "discard", "kitty", "lone_defender", "maker",
        "next", "number", "out", "queue", "status", "trump", "turned",
    )
    number: int
    dealer: int
    turned: int
    status: int
    kitty: int  # the undealt cards other than the turned card: hidden from everyone
    discard: int  # -1 until the dealer discards
    bids: tuple[Bid, ...]
    trump: int  # NO_TRUMP until made
    maker: int
    alone: bool
    lone_defender: int
    out: int  # seat bit mask of who sits out
    active: int
    next: tuple[int, ...]
    queue: tuple[int, ...]  # defenders still to decide whether to defend alone

    def copy(self) -> HandInfo:
        h = HandInfo.__new__(HandInfo)
        h.number = self.number
        h.dealer = self.dealer
        h.turned = self.turned
        h.status = self.status
        h.kitty = self.kitty
        h.discard = self.discard
        h.bids = self.bids
        h.trump = self.trump
        h.maker = self.maker
        h.alone = self.alone
        h.lone_defender = self.lone_defender
        h.out = self.out
        h.active = self.active
        h.next = self.next
        h.queue = self.queue
        return h


class Progress:
    """What changes only between hands: the options, chance steps so far, score, last result."""

    __slots__ = ("chances", "last", "rules", "score")

    def __init__(self, rules: Rules, chances: int, score: tuple[int, int],
                 last: HandResult | None) -> None:
        self.rules = rules
        self.chances = chances
        self.score = score
        self.last = last


class EuchreState:
    """One moment of a game. Never changed after it is built (see the module docstring)."""

    __slots__ = (
        "_deal", "_legal", "_trick_views", "best_power", "best_seat", "follow", "hand", "hands",
        "leader", "phase", "power", "progress", "trick", "tricks", "turn", "won",
    )
    progress: Progress
    hand: HandInfo | None
    phase: int
    hands: tuple[int, int, int, int]
    turn: int  # the seat to act, -1 when none
    leader: int
    trick: tuple[TrickPlay, ...]
    follow: int  # the cards of the suit led (0 between tricks): a hand holding any must play one
    power: tuple[int, ...]  # POWER for the suit led: what each card is worth in this trick
    best_seat: int
    best_power: int
    tricks: tuple[tuple[int, tuple[TrickPlay, ...], int], ...]  # (leader, plays, winner)
    won: tuple[int, int]
    _legal: tuple[Any, ...] | None
    _deal: tuple[Deal, tuple[int, int, int, int], int, int] | None  # memo of chance_outcome
    # Memo of ``tricks`` as views: every state of a trick shares it, as they share ``tricks``.
    _trick_views: tuple[TrickView, ...] | None

    def copy(self) -> EuchreState:
        s = EuchreState.__new__(EuchreState)
        s.progress = self.progress
        s.hand = self.hand
        s.phase = self.phase
        s.hands = self.hands
        s.turn = self.turn
        s.leader = self.leader
        s.trick = self.trick
        s.follow = self.follow
        s.power = self.power
        s.best_seat = self.best_seat
        s.best_power = self.best_power
        s.tricks = self.tricks
        s._trick_views = self._trick_views
        s.won = self.won
        s._legal = None
        s._deal = None
        return s

    @property
    def rules(self) -> Rules:
        return self.progress.rules

    @property
    def chances(self) -> int:
        return self.progress.chances

    @property
    def score(self) -> tuple[int, int]:
        return self.progress.score

    @property
    def last(self) -> HandResult | None:
        return self.progress.last

    @property
    def seed(self) -> int:
        return self.progress.rules.seed


def _replace_hand(hands: tuple[int, int, int, int], seat: int, mask: int) -> tuple[int, int, int, int]:
    if seat == 0:
        return (mask, hands[1], hands[2], hands[3])
    if seat == 1:
        return (hands[0], mask, hands[2], hands[3])
    if seat == 2:
        return (hands[0], hands[1], mask, hands[3])
    return (hands[0], hands[1], hands[2], mask)


# Each deck's cards as codes and as bits, in DECK_CARDS order: one itemgetter of a shuffled
# order deals both.
_DECK_CODES = {n: tuple(CODE[c] for c in cards) for n, cards in DECK_CARDS.items()}
_DECK_BITS = {n: tuple(BIT[c] for c in cards) for n, cards in DECK_CARDS.items()}

_PACKET_SPANS = tuple(
    (sum(PACKETS[:i]), sum(PACKETS[:i + 1])) for i in range(len(PACKETS))
)
# _DEALT[k]: from the dealt order, the cards of the seat k places after the dealer's left
# (its packets k and k + 4; see Deal).
_DEALT = tuple(
    itemgetter(*range(*_PACKET_SPANS[k]), *range(*_PACKET_SPANS[k + 4])) for k in range(4)
)
# _BY_SEAT[dealer]: puts hands listed from the dealer's left into seat order.
_BY_SEAT = tuple(itemgetter(*((seat - dealer - 1) % 4 for seat in range(4))) for dealer in range(4))


def _clear_tricks(s: EuchreState) -> None:
    """Reset the play of a state being built for a new hand (or a new game)."""
    s.leader = -1
    s.trick = ()
    s.follow = 0
    s.power = ()
    s.best_seat = -1
    s.best_power = -1
    s.tricks = ()
    s._trick_views = ()
    s.won = (0, 0)


def _illegal(code: str, detail: str) -> IllegalAction:
    return IllegalAction(code, detail)


class Euchre(Game[EuchreState]):
    info = GameInfo(
        id="euchre",
        title="Euchre",
        players=(4,),
        default_players=4,
        rules_version="1.0",
        summary="Trick-taking for two partnerships: name trump, take three of five tricks.",
        teams="seats 0 and 2 against seats 1 and 3",
        options=(
            Option("deck", "choice", "24", "24 cards (9 to ace) or 32 cards (7 to ace)",
                   choices=("24", "32")),
            Option("target", "choice", "10", "points to win the game", choices=("10", "11", "15")),
            Option("stick_the_dealer", "bool", True,
                   "the dealer must name trump if everyone else passes in round two"),
            Option("going_alone", "bool", True,
                   "a maker may play alone while their partner sits the hand out"),
            Option("defend_alone", "bool", False,
                   "a defender may play alone against a lone maker (euchring it scores 4)"),
        ),
        presentation=Presentation(
            family="trick_taking",
            zones=(Zone("hand", "hand", "hand"), Zone("trick", "trick", "trick"),
                   Zone("tricks", "score_sheet", "tricks_won")),
            gestures=(Gesture(("card",), "card", "hand"),),
            seat_colours=("blue", "red"),
        ),
    )
    action_types = (Pass, OrderUp, NameTrump, Discard, DefendAlone, DefendWithPartner, Play)
    chance_types = (Deal,)

    # -- set-up -------------------------------------------------------------------------------
    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        if options["defend_alone"] and not options["going_alone"]:
            raise OptionError("defend_alone", "needs going_alone (nobody can be alone to defend "
                              "against)", "false while going_alone is false")

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (0, 1, 0, 1)

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> EuchreState:
        self.info.check_players(players)
        rules = Rules(
            deck=int(options["deck"]),
            target=int(options["target"]),
            stick_the_dealer=bool(options["stick_the_dealer"]),
            going_alone=bool(options["going_alone"]),
            defend_alone=bool(options["defend_alone"]),
            seed=seed,
        )
        s = EuchreState.__new__(EuchreState)
        s.progress = Progress(rules, 0, (0, 0), None)
        s.hand = None
        s.phase = DEAL
        s.hands = (0, 0, 0, 0)
        s.turn = -1
        s._legal = None
        s._deal = None
        _clear_tricks(s)
        return s

    # -- chance -------------------------------------------------------------------------------
    def next_dealer(self, state: EuchreState) -> int | None:
        """Whose deal is next; None before the first deal (the cut decides)."""
        return None if state.hand is None else (state.hand.dealer + 1) % 4

    def chance_outcome(self, state: EuchreState) -> Deal | None:
        if state.phase != DEAL:
            return None
        rules = state.progress.rules
        rng = chance_rng(rules.seed, state.progress.chances)
        # The cut for the first deal is drawn before the shuffle: keep that order.
        dealer = rng.randrange(4) if state.hand is None else (state.hand.dealer + 1) % 4
        n = rules.deck
        order = shuffled_order(n, rng)
        pick = itemgetter(*order)
        deck: tuple[str, ...] = pick(_DECK_CODES[n])
        packets = (
            deck[0:3], deck[3:5], deck[5:8], deck[8:10],
            deck[10:12], deck[12:15], deck[15:17], deck[17:20],
        )
        deal = make_frozen(Deal, dealer=dealer, packets=packets, turned=deck[20], rest=deck[21:])
        # Keep the deal in integer form too: applying the very outcome drawn here needs no
        # second check (a pinned or decoded deal is another object and is checked in full).
        bits = pick(_DECK_BITS[n])  # distinct bits: a sum is their union
        d0, d1, d2, d3 = _DEALT
        hands = _BY_SEAT[dealer]((sum(d0(bits)), sum(d1(bits)), sum(d2(bits)), sum(d3(bits))))
        kitty = sum(bits[21:])
        state._deal = (deal, hands, DECK_CARDS[n][order[20]], kitty)
        return deal

    def apply_chance(self, state: EuchreState, outcome: Any) -> EuchreState:
        if state.phase != DEAL:
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no deal is due")
        memo = state._deal
        if memo is not None and memo[0] is outcome:
            hands, turned, kitty, dealer = memo[1], memo[2], memo[3], outcome.dealer
        else:
            hands, turned, kitty, dealer = self._check_deal(state, outcome)
        h = HandInfo.__new__(HandInfo)
        h.number = 1 if state.hand is None else state.hand.number + 1
        h.dealer = dealer
        h.turned = turned
        h.status = TURNED_UP
        h.kitty = kitty
        h.discard = -1
        h.bids = ()
        h.trump = NO_TRUMP
        h.maker = -1
        h.alone = False
        h.lone_defender = -1
        h.out = 0
        h.active = 4
        h.next = NEXT[0]
        h.queue = ()
        s = state.copy()
        p = state.progress
        s.progress = Progress(p.rules, p.chances + 1, p.score, p.last)
        s.hand = h
        s.phase = ROUND1
        s.hands = hands
        s.turn = (dealer + 1) % 4
        _clear_tricks(s)
        return s

    def _check_deal(
        self, state: EuchreState, outcome: Any
    ) -> tuple[tuple[int, int, int, int], int, int, int]:
        def bad(detail: str) -> IllegalAction:
            return IllegalAction(errors.BAD_CHANCE, detail)

        if not isinstance(outcome, Deal):
            raise bad("a Euchre chance step is a deal")
        expected = self.next_dealer(state)
        dealer = outcome.dealer
        if expected is None:
            if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < 4:
                raise bad("the first dealer is a seat 0..3")
        elif dealer != expected:
            raise bad(f"it is seat {expected}'s deal")
        packets = outcome.packets
        if not isinstance(packets, tuple) or len(packets) != len(PACKETS):
            raise bad("a deal has eight packets")
        if not all(isinstance(p, tuple) for p in packets):
            raise bad("a packet is a list of cards")
        sizes = tuple(len(p) for p in packets)
        if sizes != PACKETS and sizes != PACKETS_MIRROR:
            raise bad("packets are 3-2-3-2 then 2-3-2-3 (or the mirror)")
        n = state.rules.deck
        rest = outcome.rest
        if not isinstance(rest, tuple) or len(rest) != n - 4 * HAND_SIZE - 1:
            raise bad(f"the rest of the deck is {n - 4 * HAND_SIZE - 1} cards")
        get = DECK_BITS[n].__getitem__
        try:
            masks = [sum(map(get, p)) for p in packets]
            turned_bit = get(outcome.turned)
            kitty = sum(map(get, rest))
        except (KeyError, TypeError):
            codes = [*(c for p in packets for c in p), outcome.turned, *rest]
            wrong = next(c for c in codes if not isinstance(c, str) or c not in DECK_BITS[n])
            raise bad(f"{wrong!r} is not a card of the {n}-card deck") from None
        # n distinct powers of two sum to the deck mask only if no card repeats (a repeat
        # carries into another bit, so the sum of n bits would have fewer than n ones).
        if sum(masks) + turned_bit + kitty != DECK_MASK[n]:
            codes = [*(c for p in packets for c in p), outcome.turned, *rest]
            dup = next(c for i, c in enumerate(codes) if c in codes[:i])
            raise bad(f"{dup} is dealt twice")
        d = dealer + 1
        hands = [0, 0, 0, 0]
        for i in range(8):
            hands[(d + i) % 4] += masks[i]
        return (hands[0], hands[1], hands[2], hands[3]), CARD[outcome.turned], kitty, dealer

    # -- whose turn -----------------------------------------------------------------------------
    def to_act(self, state: EuchreState) -> tuple[int, ...]:
        t = state.turn
        return SEAT_TUPLE[t] if t >= 0 else ()

    def legal_actions(self, state: EuchreState, seat: int) -> tuple[Any, ...]:
        if seat != state.turn or seat < 0:
            return ()
        legal = state._legal
        if legal is None:
            if state.phase == PLAYING:  # the hot path, inlined
                mask = state.hands[seat]
                mask = mask & state.follow or mask
                t = PLAY_BYTES
                legal = t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255] + \
                    t[3][mask >> 24]
            else:
                legal = self._legal(state, seat)
            state._legal = legal
        return legal

    def _legal(self, state: EuchreState, seat: int) -> tuple[Any, ...]:
        ph = state.phase
        hand = state.hand
        assert hand is not None
        if ph == ROUND1:
            return (PASS, ORDER_UP, ORDER_UP_ALONE) if state.rules.going_alone else (PASS, ORDER_UP)
        if ph == ROUND2:
            names = ROUND2_NAMES[SUIT_OF[hand.turned]][state.rules.going_alone]
            return names if state.rules.stick_the_dealer and seat == hand.dealer else (PASS, *names)
        if ph == DISCARDING:
            return mask_actions(DISCARD_BYTES, state.hands[seat])
        if ph == DEFENDING:
            return (DEFEND_ALONE, DEFEND_WITH_PARTNER)
        return ()

    # -- acting ---------------------------------------------------------------------------------
    def apply(self, state: EuchreState, seat: int, action: Any) -> EuchreState:
        if state.phase == PLAYING and seat == state.turn and action.__class__ is Play:
            # Playing a card is nearly every step of a game: its path is written out here in
            # full (no helper calls, no copy-then-patch), measured in bench/engine.py.
            code = action.card
            c = CARD.get(code) if code.__class__ is str else None
            hands = state.hands
            mine = hands[seat]
            if c is None or not mine >> c & 1:
                raise _illegal(CARD_NOT_IN_HAND, f"{code!r} is not in your hand")
            hand = state.hand
            assert hand is not None
            trump = hand.trump
            trick = state.trick
            s = EuchreState.__new__(EuchreState)
            s.progress = state.progress
            s.hand = hand
            s.phase = PLAYING
            s._legal = None
            s._deal = None
            if trick:
                follow = mine & state.follow
                if follow and not follow >> c & 1:
                    led = ESUIT[trump][CARD[trick[0].card]]
                    bower = ESUIT[trump][c] != SUIT_OF[c]
                    raise _illegal(MUST_FOLLOW_SUIT, f"you must follow {SUITS[led]}"
                                   + (" (the left bower is trump)" if bower else ""))
                power = state.power
                p = power[c]
                if p > state.best_power:
                    best_power = p
                    best_seat = seat
                else:
                    best_power = state.best_power
                    best_seat = state.best_seat
                leader = state.leader
                follow_mask = state.follow
            else:
                led = ESUIT[trump][c]
                leader = best_seat = seat
                power = POWER[trump][led]
                best_power = power[c]
                follow_mask = SUIT_MASK[trump][led]
            mine &= ~BIT[c]
            if seat == 0:
                s.hands = (mine, hands[1], hands[2], hands[3])
            elif seat == 1:
                s.hands = (hands[0], mine, hands[2], hands[3])
            elif seat == 2:
                s.hands = (hands[0], hands[1], mine, hands[3])
            else:
                s.hands = (hands[0], hands[1], hands[2], mine)
            trick = (*trick, PLAYED[seat][c])
            if len(trick) < hand.active:
                s.trick = trick
                s.turn = hand.next[seat]
                s.leader = leader
                s.follow = follow_mask
                s.power = power
                s.best_seat = best_seat
                s.best_power = best_power
                s.tricks = state.tricks
                s._trick_views = state._trick_views
                s.won = state.won
                return s
            # The trick is complete: its winner leads the next one.
            s.tricks = tricks = (*state.tricks, (leader, trick, best_seat))
            s._trick_views = None
            won = state.won
            s.won = (won[0] + 1, won[1]) if best_seat % 2 == 0 else (won[0], won[1] + 1)
            s.trick = ()
            s.follow = 0
            s.power = ()
            s.best_seat = -1
            s.best_power = -1
            s.turn = s.leader = best_seat
            if len(tricks) == TRICKS:
                return self._score_hand(s)
            return s

        return self._apply_other(state, seat, action)

    def _apply_other(self, state: EuchreState, seat: int, action: Any) -> EuchreState:
        ph = state.phase
        if seat != state.turn or seat < 0:
            if ph == OVER:
                raise IllegalAction(errors.GAME_OVER, "the game is over")
            if ph == DEAL:
                raise IllegalAction(errors.CHANCE_PENDING, "the cards are not dealt yet")
            raise IllegalAction(errors.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
        if ph == PLAYING:
            raise _illegal(WRONG_PHASE, "it is the play: play a card")
        if ph == ROUND1:
            return self._round_one(state, seat, action)
        if ph == ROUND2:
            return self._round_two(state, seat, action)
        if ph == DISCARDING:
            return self._discard(state, seat, action)
        return self._defend(state, seat, action)

    def _card(self, state: EuchreState, seat: int, code: object) -> int:
        c = CARD.get(code) if isinstance(code, str) else None
        if c is None or not state.hands[seat] >> c & 1:
            raise _illegal(CARD_NOT_IN_HAND, f"{code!r} is not in your hand")
        return c

    def _round_one(self, state: EuchreState, seat: int, action: Any) -> EuchreState:
        hand = state.hand
        assert hand is not None
        if action.__class__ is Pass:  # no fields: the class is the whole comparison
            h = hand.copy()
            h.bids = (*hand.bids, PASS_BID[seat][1])
            s = state.copy()
            s.hand = h
            if seat == hand.dealer:
                h.status = TURNED_DOWN
                s.phase = ROUND2
            s.turn = (seat + 1) % 4
            return s
        if action.__class__ is not OrderUp:
            raise _illegal(WRONG_PHASE, "round one: order up the turned card or pass")
        alone = self._alone(state, action.alone)
        trump = SUIT_OF[hand.turned]
        h = self._made(hand, seat, trump, alone, MAKE_BID[seat][1][trump][alone])
        s = state.copy()
        s.hand = h
        if h.out >> hand.dealer & 1:
            # The dealer's partner went alone: the dealer sits out and never takes the card.
            h.status = TURNED_ASIDE
            return self._after_making(s)
        h.status = TURNED_TAKEN
        d = hand.dealer
        s.hands = _replace_hand(state.hands, d, state.hands[d] | BIT[hand.turned])
        s.phase = DISCARDING
        s.turn = d
        return s

    def _round_two(self, state: EuchreState, seat: int, action: Any) -> EuchreState:
        hand = state.hand
        assert hand is not None
        if action.__class__ is Pass:  # no fields: the class is the whole comparison
            if seat == hand.dealer and state.rules.stick_the_dealer:
                raise _illegal(DEALER_MUST_NAME, "stick the dealer: the dealer must name trump")
            h = hand.copy()
            h.bids = (*hand.bids, PASS_BID[seat][2])
            s = state.copy()
            s.hand = h
            if seat == hand.dealer:
                return self._end_hand(s, "euchre.result.thrown_in", (0, 0))
            s.turn = (seat + 1) % 4
            return s
        if action.__class__ is not NameTrump:
            raise _illegal(WRONG_PHASE, "round two: name a suit or pass")
        suit = SUITS.find(action.suit) if isinstance(action.suit, str) and len(action.suit) == 1 \
            else -1
        if suit < 0:
            raise _illegal(errors.ILLEGAL_ACTION, f"{action.suit!r} is not a suit (S, H, D, C)")
        if suit == SUIT_OF[hand.turned]:
            raise _illegal(SUIT_TURNED_DOWN, f"{SUITS[suit]} was turned down and cannot be named")
        alone = self._alone(state, action.alone)
        s = state.copy()
        s.hand = self._made(hand, seat, suit, alone, MAKE_BID[seat][2][suit][alone])
        return self._after_making(s)

    def _alone(self, state: EuchreState, alone: object) -> bool:
        if not isinstance(alone, bool):
            raise _illegal(errors.BAD_ACTION, "alone is true or false")
        if alone and not state.rules.going_alone:
            raise _illegal(ALONE_NOT_ALLOWED, "going alone is off at this table")
        return alone

    def _made(self, hand: HandInfo, seat: int, trump: int, alone: bool, bid: Bid) -> HandInfo:
        h = hand.copy()
        h.bids = (*hand.bids, bid)
        h.trump = trump
        h.maker = seat
        h.alone = alone
        if alone:
            h.out = 1 << ((seat + 2) % 4)
            h.active = 3
            h.next = NEXT[h.out]
        return h

    def _discard(self, state: EuchreState, seat: int, action: Any) -> EuchreState:
        if action.__class__ is not Discard:
            raise _illegal(WRONG_PHASE, "the dealer discards one card")
        c = self._card(state, seat, action.card)
        hand = state.hand
        assert hand is not None
        h = hand.copy()
        h.discard = c
        s = state.copy()
        s.hand = h
        s.hands = _replace_hand(state.hands, seat, state.hands[seat] & ~BIT[c])
        return self._after_making(s)

    def _after_making(self, s: EuchreState) -> EuchreState:
        """Trump is made (and any discard done): offer defending alone, else start the play."""
        hand = s.hand
        assert hand is not None
        if hand.alone and s.progress.rules.defend_alone:
            m = hand.maker
            hand.queue = ((m + 1) % 4, (m + 3) % 4)  # a copy this new state owns
            s.phase = DEFENDING
            s.turn = hand.queue[0]
            return s
        return self._start_play(s)

    def _start_play(self, s: EuchreState) -> EuchreState:
        hand = s.hand
        assert hand is not None
        s.phase = PLAYING
        hand.queue = ()
        s.turn = hand.next[hand.dealer]
        s.leader = s.turn
        return s

    def _defend(self, state: EuchreState, seat: int, action: Any) -> EuchreState:
        hand = state.hand
        assert hand is not None
        s = state.copy()
        if action.__class__ is DefendAlone:
            h = hand.copy()
            h.lone_defender = seat
            h.out = hand.out | 1 << ((seat + 2) % 4)
            h.active = 2
            h.next = NEXT[h.out]
            s.hand = h
            return self._start_play(s)
        if action.__class__ is not DefendWithPartner:
            raise _illegal(WRONG_PHASE, "defend alone or with your partner")
        h = hand.copy()
        h.queue = hand.queue[1:]
        s.hand = h
        if not h.queue:
            return self._start_play(s)
        s.turn = h.queue[0]
        return s

    # -- scoring ----------------------------------------------------------------------------------
    def _score_hand(self, s: EuchreState) -> EuchreState:
        hand = s.hand
        assert hand is not None
        side = hand.maker % 2
        taken = s.won[side]
        if taken == TRICKS:
            pts = 4 if hand.alone else 2
            key = "euchre.result.march_alone" if hand.alone else "euchre.result.march"
        elif taken >= 3:
            pts = 1
            key = "euchre.result.made_alone" if hand.alone else "euchre.result.made"
        else:
            side = 1 - side
            pts = 4 if hand.lone_defender >= 0 else 2
            key = "euchre.result.euchred_alone" if hand.lone_defender >= 0 else \
                "euchre.result.euchred"
        points = (pts, 0) if side == 0 else (0, pts)
        return self._end_hand(s, key, points)

    def _end_hand(self, s: EuchreState, key: str, points: tuple[int, int]) -> EuchreState:
        hand = s.hand
        assert hand is not None
        p = s.progress
        score = (p.score[0] + points[0], p.score[1] + points[1])
        last = make_frozen(
            HandResult,
            hand=hand.number,
            dealer=hand.dealer,
            result=key,
            trump=SUITS[hand.trump] if hand.trump != NO_TRUMP else None,
            maker=hand.maker if hand.maker >= 0 else None,
            alone=hand.alone,
            lone_defender=hand.lone_defender if hand.lone_defender >= 0 else None,
            tricks=s.won,
            points=points,
            score=score,
        )
        s.progress = Progress(p.rules, p.chances, score, last)
        s.turn = -1
        s.phase = OVER if max(score) >= p.rules.target else DEAL
        return s

    def outcome(self, state: EuchreState) -> Outcome | None:
        if state.phase != OVER:
            return None
        sc = state.score
        side = 0 if sc[0] >= state.rules.target else 1
        return Outcome((side, side + 2), (sc[0], sc[1], sc[0], sc[1]), REASON_TARGET)

    def between_hands(self, state: EuchreState) -> bool:
        return state.phase == DEAL and state.last is not None

    # -- views ----------------------------------------------------------------------------------
    def common(self, view: EuchreView) -> Common:
        # Every word from the view alone: bids, badges, trump and the last hand are all public.
        bidding = view.phase in _BIDDING
        notes = tuple(_note(view, bids[-1]) if bidding and bids else None
                      for bids in ([b for b in view.bids if b.seat == s] for s in range(4)))
        return Common(
            seat=view.seat, to_act=view.to_act, hand=tuple(hc.card for hc in view.hand),
            hand_counts=view.hand_counts, teams=self.teams(4, {}), scores=view.score,
            phase=view.phase, last=_last(view), seat_notes=notes,
            badges=tuple(_badges(view, s) for s in range(4)), result=_result(view),
            captions=(Caption("euchre.trump_line", (("suit", view.trump or "euchre.no_trump_yet"),)),
                      _by_side(view, "euchre.tricks_line", view.tricks_won),
                      _by_side(view, "euchre.score_line", view.score, ("target", view.target))))

    def view(self, state: EuchreState, seat: int | None) -> EuchreView:
        if seat is not None and (isinstance(seat, bool) or seat not in range(4)):
            raise ValueError(f"no seat {seat!r} at a Euchre table")
        r = state.rules
        hand = state.hand
        ph = state.phase
        phase = "hand_over" if ph == DEAL and state.last is not None else PHASE_NAMES[ph]
        trump = hand.trump if hand is not None else NO_TRUMP
        mine: tuple[HandCard, ...] = ()
        if seat is not None:
            mine = tuple(map(HAND_CARD[trump].__getitem__,
                             sorted(cards_of(state.hands[seat]), key=HAND_ORDER[trump].__getitem__)))
        discard = None
        if hand is not None and seat == hand.dealer and hand.discard >= 0:
            discard = CODE[hand.discard]
        return make_frozen(
            EuchreView,
            seat=seat,
            side=None if seat is None else seat % 2,
            phase=phase,
            to_act=self.to_act(state),
            target=r.target,
            deck=r.deck,
            stick_the_dealer=r.stick_the_dealer,
            going_alone=r.going_alone,
            defend_alone=r.defend_alone,
            hand_number=0 if hand is None else hand.number,
            dealer=None if hand is None else hand.dealer,
            turned=None if hand is None else CODE[hand.turned],
            turned_status=None if hand is None else TURNED_NAMES[hand.status],
            bids=() if hand is None else hand.bids,
            trump=SUITS[trump] if trump != NO_TRUMP else None,
            maker=hand.maker if hand is not None and hand.maker >= 0 else None,
            alone=hand.alone if hand is not None else False,
            lone_defender=hand.lone_defender
            if hand is not None and hand.lone_defender >= 0 else None,
            sitting_out=() if hand is None else OUT_SEATS[hand.out],
            leader=state.leader if state.leader >= 0 else None,
            trick=state.trick,
            tricks=self._trick_views(state),
            tricks_won=state.won,
            score=state.score,
            hand=mine,
            hand_counts=tuple(map(int.bit_count, state.hands)),
            discard=discard,
            last_hand=state.last,
        )

    def _trick_views(self, state: EuchreState) -> tuple[TrickView, ...]:
        views = state._trick_views
        if views is None:
            views = state._trick_views = tuple(TrickView(*t) for t in state.tricks)
        return views

    # -- hidden information ---------------------------------------------------------------------
    def resample_hidden(
        self, state: EuchreState, seat: int | None, rng: random.Random
    ) -> EuchreState:
        """Redeal what ``seat`` cannot see: other hands, the undealt cards, the future deals.

        Kept: the seat's own hand, every card played, every count, and the turned card where
        it lies once the dealer took it (everyone saw it go to the dealer). The dealer's
        discard is redrawn too unless ``seat`` is the dealer.
        """
        s = state.copy()
        p = state.progress
        s.progress = Progress(dataclasses.replace(p.rules, seed=rng.randrange(2**62)), p.chances,
                              p.score, p.last)
        hand = state.hand
        if hand is None or state.phase in (DEAL, OVER):
            return s
        fixed = BIT[hand.turned] if hand.status == TURNED_TAKEN else 0
        slots: list[tuple[str, int, int]] = []  # (kind, index, how many hidden cards)
        pool = 0
        for i in range(4):
            if i != seat:
                hidden = state.hands[i] & ~fixed
                slots.append(("hand", i, hidden.bit_count()))
                pool |= hidden
        slots.append(("kitty", 0, hand.kitty.bit_count()))
        pool |= hand.kitty
        discard_hidden = hand.discard >= 0 and seat != hand.dealer and not fixed >> hand.discard & 1
        if discard_hidden:
            slots.append(("discard", 0, 1))
            pool |= BIT[hand.discard]
        cards = cards_of(pool)
        rng.shuffle(cards)
        hands = list(state.hands)
        h = hand.copy()
        pos = 0
        for kind, i, n in slots:
            part = 0
            for c in cards[pos:pos + n]:
                part |= BIT[c]
            pos += n
            if kind == "hand":
                hands[i] = (state.hands[i] & fixed) | part
            elif kind == "kitty":
                h.kitty = part
            else:
                h.discard = cards_of(part)[0]
        s.hands = (hands[0], hands[1], hands[2], hands[3])
        s.hand = h
        return s


GAME = Euchre()


# -- the common part's words (Game.common): from a seat's view only ------------------------------
_BIDDING = ("round_one", "round_two", "discard", "defend_alone")


def _bid_key(view: EuchreView, bid: Bid, kind: str = "bid") -> Caption:
    """A bid in words: ``euchre.bid.*`` names the bidder, ``euchre.note.*`` (at the seat's
    feet) does not."""
    # The dealer ordering up is picking the turned card up: the same call, its own words.
    call = "pick_up" if bid.call == "order_up" and bid.seat == view.dealer else bid.call
    return Caption(f"euchre.{kind}.{call}{'_alone' if bid.alone else ''}",
                   (("seat", bid.seat), ("suit", bid.suit or "")))


def _note(view: EuchreView, bid: Bid) -> Caption:
    return _bid_key(view, bid, "note")


def _badges(view: EuchreView, seat: int) -> tuple[Caption, ...]:
    keys = (seat == view.dealer and "euchre.dealer",
            seat == view.maker and ("euchre.maker_alone" if view.alone else "euchre.maker"),
            seat == view.lone_defender and "euchre.lone_defender",
            seat in view.sitting_out and "euchre.sitting_out")
    return tuple(Caption(k) for k in keys if k)


def _sides(view: EuchreView) -> tuple[int, int]:
    """Sides in the order this seat reads them: its own first."""
    return (1, 0) if view.side == 1 else (0, 1)


def _side_name(view: EuchreView, side: int) -> str:
    if view.side is None:  # a spectator has no "us": the sides by their seats
        return f"euchre.side.{side}"
    return "euchre.us" if side == view.side else "euchre.them"


def _by_side(view: EuchreView, key: str, xs: tuple[int, int],
             *extra: tuple[str, str | int]) -> Caption:
    first, second = _sides(view)
    return Caption(key, (*extra, ("first", _side_name(view, first)), ("a", xs[first]),
                         ("second", _side_name(view, second)), ("b", xs[second])))


def _result(view: EuchreView) -> tuple[Caption, ...]:
    """The hand just over, until the next hand's first bid."""
    r = view.last_hand
    if r is None or not (view.phase == "hand_over" or (view.phase == "round_one" and not view.bids)):
        return ()
    head = Caption("euchre.hand_over", (("n", r.hand),))
    if r.maker is None:
        return (head, Caption(r.result))
    won = 0 if r.points[0] >= r.points[1] else 1
    return (head, Caption(r.result), Caption("euchre.result.summary", (
        ("seat", r.maker), ("suit", r.trump or ""), ("tricks", r.tricks[r.maker % 2]),
        ("side", _side_name(view, won)), ("points", max(r.points)))))


def _last(view: EuchreView) -> Caption | None:
    """The last thing done, as the view shows it: a card, a trick taken, a bid, a hand's end."""
    # The game ends on a hand's end: its result, not the bid that opened the hand, is last.
    if view.phase in ("hand_over", "game_over") and view.last_hand is not None:
        return Caption(view.last_hand.result)
    if view.trick:
        p = view.trick[-1]
        return Caption("euchre.last.play", (("seat", p.seat), ("card", p.card)))
    if view.tricks and view.phase == "play":
        t = view.tricks[-1]
        return Caption("euchre.last.trick", (("seat", t.winner), ("card", t.plays[-1].card)))
    if view.bids:
        return _bid_key(view, view.bids[-1])
    if view.last_hand is not None:
        return Caption(view.last_hand.result)
    return None
