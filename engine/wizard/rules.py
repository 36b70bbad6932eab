"""Wizard's rules: the state machine over the plain data of ``state.py``.

Three to six players, each for themself, a 60-card deck: the 52 standard cards plus four
Wizards (``W1``..``W4``) and four Jesters (``N1``..``N4``). Round ``r`` deals ``r`` cards
each, for 60/N rounds (or fewer, option ``rounds``). Each round is one chance step (the deal
and the turned card; the first dealer is drawn with it); the turned card's suit is trump (a
Jester, or no card in the last round: no trump; a Wizard: the dealer names trump as a step of
its own, before bidding); then one bid per seat from the dealer's left (0 to r; option
``screw_the_dealer`` forbids the dealer a bid that makes the total r; option ``hidden_bids``
keeps bids out of other seats' views until the last is in); then r tricks, the dealer's left
leading the first and each trick's taker the next. An exact bid scores 20 plus 10 a trick,
any other loses 10 a trick off. ``docs/rules/wizard.md`` states exactly what is enforced;
keep the two in step.

States are immutable: ``apply`` builds a new state with ``dataclasses.replace``, so a refusal
changes nothing. This module must never do I/O, read the clock, or use the global random
generator; what a seat may see is decided in ``views.py`` alone.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Common, Gesture, Presentation, Zone
from engine.wizard.state import (
    ACTING,
    BIDDING,
    DEAL,
    DECK,
    OVER,
    PLAY,
    SUITS,
    TRUMP,
    Bid,
    ChooseTrump,
    Deal,
    Last,
    Play,
    RoundResult,
    Rules,
    TrickPlay,
    TrickView,
    WizardState,
    is_plain,
    is_wizard,
    playable,
    round_score,
    rounds_for,
    sort_hand,
    trick_winner,
)
from engine.wizard.views import WizardView, bids_hidden, build_common, build_view

MUST_FOLLOW_SUIT = "must_follow_suit"
CARD_NOT_IN_HAND = "card_not_in_hand"
BID_NOT_ALLOWED = "bid_not_allowed"
NO_SUCH_SUIT = "no_such_suit"
WRONG_PHASE = "wrong_phase"
CODES = (MUST_FOLLOW_SUIT, CARD_NOT_IN_HAND, BID_NOT_ALLOWED, NO_SUCH_SUIT, WRONG_PHASE)

REASON_END = "wizard.final_scores"


def _illegal(code: str, detail: str) -> IllegalAction:
    return IllegalAction(code, detail)


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
            rules=rules, chances=0, phase=DEAL, round=0, dealer=-1,
            hands=((),) * players, turned=None, trump=None, turn=-1,
            bids=(None,) * players, taken=zero, leader=-1, trick=(), tricks=(), scores=zero,
            sheet=(), last=None)

    # -- chance -------------------------------------------------------------------------------
    def chance_outcome(self, state: WizardState) -> Deal | None:
        if state.phase != DEAL:
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
        if state.phase != DEAL:
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
        if not all(isinstance(c, str) and c in DECK for c in flat) or len(set(flat)) != len(flat):
            raise _illegal(errors.BAD_CHANCE, "cards must be distinct cards of the deck")
        if (outcome.turned is None) != (n * r == len(DECK)):
            raise _illegal(errors.BAD_CHANCE, "a card is turned unless every card is dealt")
        turned = outcome.turned
        trump = turned[1] if turned is not None and is_plain(turned) else None
        base = dataclasses.replace(
            state, chances=state.chances + 1, round=r, dealer=d,
            hands=tuple(sort_hand(h) for h in outcome.hands), turned=turned, trump=trump,
            bids=(None,) * n, taken=(0,) * n, trick=(), tricks=(), leader=(d + 1) % n,
            last=None)
        if turned is not None and is_wizard(turned):
            return dataclasses.replace(base, phase=TRUMP, turn=d)
        return dataclasses.replace(base, phase=BIDDING, turn=(d + 1) % n)

    # -- play ---------------------------------------------------------------------------------
    def to_act(self, state: WizardState) -> tuple[int, ...]:
        return (state.turn,) if state.phase in ACTING else ()

    def legal_actions(self, state: WizardState, seat: int) -> tuple[Any, ...]:
        if seat != state.turn or state.phase not in ACTING:
            return ()
        if state.phase == TRUMP:
            return tuple(ChooseTrump(s) for s in SUITS)
        if state.phase == BIDDING:
            return tuple(Bid(b) for b in self._bids(state, seat))
        return tuple(Play(c) for c in playable(state.hands[seat],
                                               [p.card for p in state.trick]))

    def _bids(self, state: WizardState, seat: int) -> list[int]:
        r = state.round
        out = list(range(r + 1))
        if state.rules.screw_the_dealer and seat == state.dealer:
            total = sum(b for b in state.bids if b is not None)
            out = [b for b in out if total + b != r]
        return out

    def apply(self, state: WizardState, seat: int, action: Any) -> WizardState:
        if state.phase not in ACTING:
            raise _illegal(errors.GAME_OVER if state.phase == OVER else errors.NOT_YOUR_TURN,
                           "nobody may act now")
        if seat != state.turn:
            raise _illegal(errors.NOT_YOUR_TURN, f"seat {state.turn} is to act")
        n = state.rules.players
        if state.phase == TRUMP:
            if not isinstance(action, ChooseTrump):
                raise _illegal(WRONG_PHASE, "the dealer names trump first")
            if not isinstance(action.suit, str) or action.suit not in tuple(SUITS):
                raise _illegal(NO_SUCH_SUIT, "trump is one of S, H, D, C")
            return dataclasses.replace(state, trump=action.suit, phase=BIDDING,
                                       turn=(seat + 1) % n,
                                       last=Last(seat, "trump", suit=action.suit))
        if state.phase == BIDDING:
            if not isinstance(action, Bid):
                raise _illegal(WRONG_PHASE, "bid first")
            b = action.tricks
            if not isinstance(b, int) or isinstance(b, bool) or b not in self._bids(state, seat):
                # Never echo the hidden total: the detail names only the range.
                raise _illegal(BID_NOT_ALLOWED, f"a bid is 0 to {state.round}"
                               + (", and the dealer may not make the total"
                                  if state.rules.screw_the_dealer and seat == state.dealer
                                  else ""))
            bids = list(state.bids)
            bids[seat] = b
            last = Last(seat, "bid", tricks=b)
            if seat == state.dealer:
                return dataclasses.replace(state, bids=tuple(bids), phase=PLAY,
                                           turn=state.leader, last=last)
            return dataclasses.replace(state, bids=tuple(bids), turn=(seat + 1) % n, last=last)
        if not isinstance(action, Play):
            raise _illegal(WRONG_PHASE, "play a card")
        return self._play(state, seat, action.card)

    def _play(self, state: WizardState, seat: int, card: object) -> WizardState:
        n = state.rules.players
        hand = state.hands[seat]
        if not isinstance(card, str) or card not in hand:
            raise _illegal(CARD_NOT_IN_HAND, "that card is not in your hand")
        if card not in playable(hand, [p.card for p in state.trick]):
            raise _illegal(MUST_FOLLOW_SUIT, "follow the led suit (or play a Wizard or Jester)")
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        trick = (*state.trick, TrickPlay(seat, card))
        last = Last(seat, "play", card=card)
        if len(trick) < n:
            return dataclasses.replace(state, hands=tuple(hands), trick=trick,
                                       turn=(seat + 1) % n, last=last)
        winner = trick_winner(tuple((p.seat, p.card) for p in trick), state.trump)
        taken = list(state.taken)
        taken[winner] += 1
        s = dataclasses.replace(
            state, hands=tuple(hands), trick=(), leader=winner, turn=winner, last=last,
            taken=tuple(taken), tricks=(*state.tricks, TrickView(trick[0].seat, trick, winner)))
        if len(s.tricks) < state.round:
            return s
        bids = tuple(b or 0 for b in s.bids)
        points = tuple(round_score(b, t) for b, t in zip(bids, s.taken, strict=True))
        totals = tuple(a + b for a, b in zip(s.scores, points, strict=True))
        line = RoundResult(s.round, s.dealer, s.trump, bids, s.taken, points, totals)
        over = s.round >= s.rules.rounds
        return dataclasses.replace(s, phase=OVER if over else DEAL, scores=totals,
                                   sheet=(*s.sheet, line), turn=-1, hands=((),) * n)

    def outcome(self, state: WizardState) -> Outcome | None:
        if state.phase != OVER:
            return None
        best = max(state.scores)
        winners = tuple(s for s, v in enumerate(state.scores) if v == best)
        return Outcome(winners, state.scores, REASON_END)

    def between_hands(self, state: WizardState) -> bool:
        return state.phase == DEAL and bool(state.sheet)

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(range(players))

    # -- views --------------------------------------------------------------------------------
    def view(self, state: WizardState, seat: int | None) -> WizardView:
        if seat is not None and (isinstance(seat, bool) or seat not in range(state.rules.players)):
            raise ValueError(f"no seat {seat!r} at this Wizard table")
        return build_view(state, seat, self.to_act(state))

    def common(self, view: WizardView) -> Common:
        return build_common(view)

    # -- hidden information -------------------------------------------------------------------
    def resample_hidden(self, state: WizardState, seat: int | None,
                        rng: random.Random) -> WizardState:
        """Redeal what ``seat`` cannot see: other hands, the undealt cards, future deals, and
        (with hidden bids, while bidding) the other seats' bids, the last one included."""
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
        bids, last = state.bids, state.last
        if bids_hidden(state):
            bids = tuple(b if (s == seat or b is None) else rng.randrange(state.round + 1)
                         for s, b in enumerate(bids))
            if last is not None and last.kind == "bid" and last.seat != seat:
                last = dataclasses.replace(last, tricks=bids[last.seat] or 0)
        return dataclasses.replace(state, rules=rules, hands=tuple(hands), bids=bids, last=last)


GAME = Wizard()
