"""Wizard's rules: the state machine, its actions and chance steps, and each seat's view.

Three to six players, each for themself, a 60-card deck: the 52 standard cards plus four
Wizards (codes ``W1``..``W4``) and four Jesters (``N1``..``N4``), codes that no standard card
uses. Round ``r`` deals ``r`` cards each, for 60/N rounds (or fewer, option ``rounds``). Each
round is one chance step (the deal and the turned card; the first dealer is drawn with it),
the dealer's choice of trump when a Wizard is turned, one bid per seat from the dealer's left
(0 to r; option ``screw_the_dealer`` forbids the dealer a bid that makes the total r), then r
tricks. An exact bid scores 20 plus 10 a trick, any other loses 10 a trick off.
``docs/rules/wizard.md`` states exactly what is enforced; keep the two in step.

States are immutable: ``apply`` builds a new state with ``dataclasses.replace``. This module
must never do I/O, read the clock, use the global random generator, or put in a view what the
seat may not see: other hands are counts, and with ``hidden_bids`` the other seats' bids stay
hidden until every bid is in.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, Gesture, Presentation, Zone

SUITS = "SHDC"
RANKS = "23456789TJQKA"  # low to high
WIZARDS = ("W1", "W2", "W3", "W4")
JESTERS = ("N1", "N2", "N3", "N4")
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + WIZARDS + JESTERS

MUST_FOLLOW_SUIT = "must_follow_suit"
CARD_NOT_IN_HAND = "card_not_in_hand"
BID_NOT_ALLOWED = "bid_not_allowed"
WRONG_PHASE = "wrong_phase"

REASON_END = "wizard.final_scores"


def is_wizard(c: str) -> bool:
    return c[0] == "W" and c[1] in "1234"


def is_jester(c: str) -> bool:
    return c[0] == "N" and c[1] in "1234"


def is_plain(c: str) -> bool:
    return not is_wizard(c) and not is_jester(c)


def led_suit(cards: tuple[str, ...] | list[str]) -> str | None:
    """The suit to follow: the first plain card's, unless a Wizard came first (then none)."""
    for c in cards:
        if is_wizard(c):
            return None
        if is_plain(c):
            return c[1]
    return None


def trick_winner(plays: tuple[tuple[int, str], ...], trump: str | None) -> int:
    """The first Wizard; else the highest trump; else the highest of the led suit; an
    all-Jester trick goes to the first Jester."""
    for seat, c in plays:
        if is_wizard(c):
            return seat
    led = led_suit([c for _, c in plays])
    if led is None:
        return plays[0][0]
    best, key = -1, (-1, -1)
    for seat, c in plays:
        if is_jester(c):
            continue
        k = (2 if c[1] == trump else 1 if c[1] == led else 0, RANKS.index(c[0]))
        if k > key:
            best, key = seat, k
    return best


def round_score(bid: int, taken: int) -> int:
    return 20 + 10 * taken if bid == taken else -10 * abs(bid - taken)


def sort_hand(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    def key(c: str) -> tuple[int, int]:
        if is_wizard(c):
            return (0, int(c[1]))
        if is_jester(c):
            return (5, int(c[1]))
        return (1 + SUITS.index(c[1]), -RANKS.index(c[0]))

    return tuple(sorted(cards, key=key))


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChooseTrump:
    """The dealer, a Wizard having been turned, names trump after seeing their hand."""

    suit: str


@dataclass(frozen=True)
class Bid:
    tricks: int


@dataclass(frozen=True)
class Play:
    card: str


# -- chance ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One round's deal: ``hands[i]`` for seat ``i``, and the turned card (None when every
    card is dealt). ``dealer`` must be the seat whose deal it is (drawn for the first)."""

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turned: str | None


# -- views -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrickPlay:
    seat: int
    card: str


@dataclass(frozen=True)
class TrickView:
    leader: int
    plays: tuple[TrickPlay, ...]
    winner: int


@dataclass(frozen=True)
class RoundResult:
    """One line of the score sheet: per seat, the bid, the tricks taken, the points, the total."""

    round: int
    dealer: int
    trump: str | None
    bids: tuple[int, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class WizardView:
    seat: int | None
    phase: str  # deal, trump, bidding, play, round_over, game_over
    to_act: tuple[int, ...]
    players: int
    rounds: int
    screw_the_dealer: bool
    hidden_bids: bool
    round: int
    dealer: int | None
    turned: str | None
    trump: str | None
    bids: tuple[int | None, ...]  # None: not bid yet, or hidden
    bids_in: tuple[bool, ...]
    taken: tuple[int, ...]
    leader: int | None
    trick: tuple[TrickPlay, ...]
    tricks: tuple[TrickView, ...]
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    scores: tuple[int, ...]
    sheet: tuple[RoundResult, ...]


# -- state -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    players: int
    rounds: int
    screw_the_dealer: bool
    hidden_bids: bool
    seed: int


@dataclass(frozen=True)
class WizardState:
    rules: Rules
    chances: int
    phase: str  # deal, trump, bidding, play, over
    round: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turned: str | None
    trump: str | None
    turn: int
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    leader: int
    trick: tuple[TrickPlay, ...]
    tricks: tuple[TrickView, ...]
    scores: tuple[int, ...]
    sheet: tuple[RoundResult, ...]


def _illegal(code: str, detail: str) -> IllegalAction:
    return IllegalAction(code, detail)


def rounds_for(players: int, cap: str) -> int:
    full = 60 // players
    return full if cap == "full" else min(full, int(cap))


class Wizard(Game[WizardState]):
    info = GameInfo(
        id="wizard",
        title="Wizard",
        players=(3, 4, 5, 6),
        default_players=4,
        rules_version="1.0",
        summary="Bid exactly how many tricks you will take, round after round; Wizards always "
                "win, Jesters always lose.",
        teams="every player for themself",
        options=(
            Option("screw_the_dealer", "bool", False,
                   "the dealer may not bid so that the bids add up to the tricks in the round"),
            Option("hidden_bids", "bool", False,
                   "bids stay hidden until every player has bid"),
            Option("rounds", "choice", "full",
                   "play every round (60 / players) or stop after 5 or 10",
                   choices=("full", "5", "10")),
        ),
        presentation=Presentation(
            family="trick_taking",
            zones=(Zone("hand", "hand", "hand"), Zone("trick", "trick", "trick"),
                   Zone("sheet", "score_sheet", "sheet")),
            gestures=(Gesture(("card",), "card", "hand"),),
        ),
    )
    action_types = (ChooseTrump, Bid, Play)
    chance_types = (Deal,)

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        if options["screw_the_dealer"] and options["hidden_bids"]:
            # The dealer's legal list would reveal the total of the hidden bids.
            raise OptionError("hidden_bids", "cannot be combined with screw_the_dealer",
                              "false while screw_the_dealer is true")

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> WizardState:
        o = self.validate(players, options)
        rules = Rules(players, rounds_for(players, str(o["rounds"])),
                      bool(o["screw_the_dealer"]), bool(o["hidden_bids"]), seed)
        zero = (0,) * players
        return WizardState(
            rules=rules, chances=0, phase="deal", round=0, dealer=-1,
            hands=((),) * players, turned=None, trump=None, turn=-1,
            bids=(None,) * players, taken=zero, leader=-1, trick=(), tricks=(), scores=zero,
            sheet=())

    # -- chance -------------------------------------------------------------------------------
    def chance_outcome(self, state: WizardState) -> Deal | None:
        if state.phase != "deal":
            return None
        n = state.rules.players
        rng = chance_rng(state.rules.seed, state.chances)
        dealer = rng.randrange(n) if state.dealer < 0 else (state.dealer + 1) % n
        cards = list(DECK)
        rng.shuffle(cards)
        r = state.round + 1
        hands = tuple(sort_hand(cards[i * r:(i + 1) * r]) for i in range(n))
        turned = cards[n * r] if n * r < len(DECK) else None
        return Deal(dealer, hands, turned)

    def apply_chance(self, state: WizardState, outcome: Any) -> WizardState:
        if state.phase != "deal":
            raise _illegal(errors.BAD_CHANCE, "no deal is pending")
        if not isinstance(outcome, Deal):
            raise _illegal(errors.BAD_CHANCE, "expected a Deal")
        n = state.rules.players
        r = state.round + 1
        want = None if state.dealer < 0 else (state.dealer + 1) % n
        d = outcome.dealer
        if not isinstance(d, int) or isinstance(d, bool) or d not in range(n) or (
                want is not None and d != want):
            raise _illegal(errors.BAD_CHANCE, f"the dealer must be {want}")
        if not isinstance(outcome.hands, tuple) or len(outcome.hands) != n or any(
                not isinstance(h, tuple) or len(h) != r for h in outcome.hands):
            raise _illegal(errors.BAD_CHANCE, f"{n} hands of {r} cards")
        flat = [c for h in outcome.hands for c in h]
        if outcome.turned is not None:
            flat.append(outcome.turned)
        if len(set(flat)) != len(flat) or not all(isinstance(c, str) and c in DECK
                                                  for c in flat):
            raise _illegal(errors.BAD_CHANCE, "cards must be distinct cards of the deck")
        if (outcome.turned is None) != (n * r == len(DECK)):
            raise _illegal(errors.BAD_CHANCE, "a card is turned unless every card is dealt")
        turned = outcome.turned
        trump = turned[1] if turned is not None and is_plain(turned) else None
        base = dataclasses.replace(
            state, chances=state.chances + 1, round=r, dealer=d,
            hands=tuple(sort_hand(h) for h in outcome.hands), turned=turned, trump=trump,
            bids=(None,) * n, taken=(0,) * n, trick=(), tricks=(), leader=(d + 1) % n)
        if turned is not None and is_wizard(turned):
            return dataclasses.replace(base, phase="trump", turn=d)
        return dataclasses.replace(base, phase="bidding", turn=(d + 1) % n)

    # -- play ---------------------------------------------------------------------------------
    def to_act(self, state: WizardState) -> tuple[int, ...]:
        if state.phase in ("trump", "bidding", "play"):
            return (state.turn,)
        return ()

    def legal_actions(self, state: WizardState, seat: int) -> tuple[Any, ...]:
        if seat != state.turn or state.phase not in ("trump", "bidding", "play"):
            return ()
        if state.phase == "trump":
            return tuple(ChooseTrump(s) for s in SUITS)
        if state.phase == "bidding":
            return tuple(Bid(b) for b in self._bids(state, seat))
        return tuple(Play(c) for c in self._playable(state, seat))

    def _bids(self, state: WizardState, seat: int) -> list[int]:
        r = state.round
        out = list(range(r + 1))
        if state.rules.screw_the_dealer and seat == state.dealer:
            total = sum(b for b in state.bids if b is not None)
            out = [b for b in out if total + b != r]
        return out

    def _playable(self, state: WizardState, seat: int) -> tuple[str, ...]:
        hand = state.hands[seat]
        led = led_suit([p.card for p in state.trick])
        if led is None:
            return hand
        if any(is_plain(c) and c[1] == led for c in hand):
            # Wizards and Jesters may always be played instead of following.
            return tuple(c for c in hand if not is_plain(c) or c[1] == led)
        return hand

    def apply(self, state: WizardState, seat: int, action: Any) -> WizardState:
        if state.phase not in ("trump", "bidding", "play"):
            raise _illegal(errors.GAME_OVER if state.phase == "over" else errors.NOT_YOUR_TURN,
                           "nobody may act now")
        if seat != state.turn:
            raise _illegal(errors.NOT_YOUR_TURN, f"seat {state.turn} is to act")
        n = state.rules.players
        if state.phase == "trump":
            if not isinstance(action, ChooseTrump):
                raise _illegal(WRONG_PHASE, "the dealer names trump first")
            if action.suit not in tuple(SUITS):
                raise _illegal(errors.BAD_ACTION, f"no suit {action.suit!r}")
            return dataclasses.replace(state, trump=action.suit, phase="bidding",
                                       turn=(seat + 1) % n)
        if state.phase == "bidding":
            if not isinstance(action, Bid):
                raise _illegal(WRONG_PHASE, "bid first")
            b = action.tricks
            if not isinstance(b, int) or isinstance(b, bool) or b not in self._bids(state, seat):
                raise _illegal(BID_NOT_ALLOWED, f"bid {b!r} is not allowed")
            bids = list(state.bids)
            bids[seat] = b
            if seat == state.dealer:
                return dataclasses.replace(state, bids=tuple(bids), phase="play",
                                           turn=state.leader)
            return dataclasses.replace(state, bids=tuple(bids), turn=(seat + 1) % n)
        if not isinstance(action, Play):
            raise _illegal(WRONG_PHASE, "play a card")
        return self._play(state, seat, action.card)

    def _play(self, state: WizardState, seat: int, card: object) -> WizardState:
        n = state.rules.players
        hand = state.hands[seat]
        if not isinstance(card, str) or card not in hand:
            raise _illegal(CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
        if card not in self._playable(state, seat):
            raise _illegal(MUST_FOLLOW_SUIT, "follow the led suit (or play a Wizard or Jester)")
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        trick = (*state.trick, TrickPlay(seat, card))
        if len(trick) < n:
            return dataclasses.replace(state, hands=tuple(hands), trick=trick,
                                       turn=(seat + 1) % n)
        winner = trick_winner(tuple((p.seat, p.card) for p in trick), state.trump)
        taken = list(state.taken)
        taken[winner] += 1
        s = dataclasses.replace(
            state, hands=tuple(hands), trick=(), leader=winner, turn=winner,
            taken=tuple(taken), tricks=(*state.tricks, TrickView(trick[0].seat, trick, winner)))
        if len(s.tricks) < state.round:
            return s
        bids = tuple(b or 0 for b in s.bids)
        points = tuple(round_score(b, t) for b, t in zip(bids, s.taken, strict=True))
        totals = tuple(a + b for a, b in zip(s.scores, points, strict=True))
        line = RoundResult(s.round, s.dealer, s.trump, bids, s.taken, points, totals)
        over = s.round >= s.rules.rounds
        return dataclasses.replace(s, phase="over" if over else "deal", scores=totals,
                                   sheet=(*s.sheet, line), turn=-1,
                                   hands=((),) * n)

    def outcome(self, state: WizardState) -> Outcome | None:
        if state.phase != "over":
            return None
        best = max(state.scores)
        winners = tuple(s for s, v in enumerate(state.scores) if v == best)
        return Outcome(winners, state.scores, REASON_END)

    def between_hands(self, state: WizardState) -> bool:
        return state.phase == "deal" and bool(state.sheet)

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(range(players))

    # -- views --------------------------------------------------------------------------------
    def common(self, view: WizardView) -> Common:
        caps = [Caption("wizard.round", (("round", view.round), ("rounds", view.rounds)))]
        caps.append(Caption("wizard.trump", (("suit", view.trump),)) if view.trump
                    else Caption("wizard.no_trump"))
        return Common(
            seat=view.seat, to_act=view.to_act, hand=view.hand, hand_counts=view.hand_counts,
            teams=tuple(range(view.players)), scores=view.scores, phase=view.phase,
            captions=tuple(caps))

    def view(self, state: WizardState, seat: int | None) -> WizardView:
        r = state.rules
        n = r.players
        if seat is not None and (isinstance(seat, bool) or seat not in range(n)):
            raise ValueError(f"no seat {seat!r} at this Wizard table")
        ph = state.phase
        phase = ("round_over" if ph == "deal" and state.sheet
                 else "game_over" if ph == "over" else ph)
        live = ph in ("trump", "bidding", "play")
        bids: tuple[int | None, ...] = state.bids if live else (None,) * n
        if r.hidden_bids and ph in ("trump", "bidding"):
            bids = tuple(b if s == seat else None for s, b in enumerate(bids))
        return WizardView(
            seat=seat, phase=phase, to_act=self.to_act(state), players=n, rounds=r.rounds,
            screw_the_dealer=r.screw_the_dealer, hidden_bids=r.hidden_bids, round=state.round,
            dealer=None if state.dealer < 0 else state.dealer,
            turned=state.turned if live else None, trump=state.trump if live else None,
            bids=bids, bids_in=tuple(b is not None for b in (state.bids if live else bids)),
            taken=state.taken if live else (0,) * n,
            leader=state.leader if ph == "play" else None, trick=state.trick,
            tricks=state.tricks if live else (),
            hand=() if seat is None else state.hands[seat],
            hand_counts=tuple(len(h) for h in state.hands), scores=state.scores,
            sheet=state.sheet)

    # -- hidden information -------------------------------------------------------------------
    def resample_hidden(self, state: WizardState, seat: int | None,
                        rng: random.Random) -> WizardState:
        """Redeal what ``seat`` cannot see: other hands, the undealt cards, future deals, and
        (with hidden bids, while bidding) the other seats' bids."""
        rules = dataclasses.replace(state.rules, seed=rng.randrange(2**62))
        n = state.rules.players
        others = [i for i in range(n) if i != seat]
        pool = [c for i in others for c in state.hands[i]]
        rng.shuffle(pool)
        hands = list(state.hands)
        pos = 0
        for i in others:
            k = len(state.hands[i])
            hands[i] = sort_hand(pool[pos:pos + k])
            pos += k
        bids = state.bids
        if rules.hidden_bids and state.phase in ("trump", "bidding"):
            bids = tuple(b if (s == seat or b is None) else rng.randrange(state.round + 1)
                         for s, b in enumerate(bids))
        return dataclasses.replace(state, rules=rules, hands=tuple(hands), bids=bids)


GAME = Wizard()
