"""What one seat (or a spectator, seat None) may know of a Wizard game, built field by field,
and the common part every client draws (captions, scores, the last action).

Allowed: the seat's own hand; every hand's size; the turned card and trump; the bids (with
``hidden_bids``, only the seat's own until every bid is in; who has bid is public); tricks
taken; the current trick and the round's finished tricks (played face up); the scores and
the score sheet of every finished round (bid, taken, points per seat), for every seat and
the spectator alike. Never: another hand, the undealt cards, the seed, the next deal, or a
hidden bid in any field, caption or last action. This module must never copy the state
wholesale.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.presentation import Caption, Common, Sheet
from engine.wizard.state import (
    ACTING,
    BIDDING,
    DEAL,
    OVER,
    PLAY,
    TRUMP,
    Last,
    RoundResult,
    TrickPlay,
    TrickView,
    WizardState,
    is_jester,
    is_wizard,
)


@dataclass(frozen=True)
class LastMove:
    """The last action as this seat may know it: a hidden bid has ``tricks`` None."""

    seat: int
    kind: str  # trump, bid, play
    suit: str
    tricks: int | None
    card: str


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
    last: LastMove | None


def bids_hidden(state: WizardState) -> bool:
    """True while other seats' bids must not be shown (hidden bids, bidding not finished)."""
    return state.rules.hidden_bids and state.phase in (TRUMP, BIDDING)


def view_phase(state: WizardState) -> str:
    if state.phase == DEAL and state.sheet:
        return "round_over"
    return "game_over" if state.phase == OVER else state.phase


def _last(state: WizardState, seat: int | None) -> LastMove | None:
    last: Last | None = state.last
    if last is None:
        return None
    secret = last.kind == "bid" and bids_hidden(state) and last.seat != seat
    return LastMove(last.seat, last.kind, last.suit, None if secret else last.tricks,
                    last.card)


def build_view(state: WizardState, seat: int | None, to_act: tuple[int, ...]) -> WizardView:
    r = state.rules
    n = r.players
    live = state.phase in ACTING
    bids: tuple[int | None, ...] = state.bids if live else (None,) * n
    if bids_hidden(state):
        bids = tuple(b if s == seat else None for s, b in enumerate(bids))
    return WizardView(
        seat=seat, phase=view_phase(state), to_act=to_act, players=n, rounds=r.rounds,
        screw_the_dealer=r.screw_the_dealer, hidden_bids=r.hidden_bids, round=state.round,
        dealer=None if state.dealer < 0 else state.dealer,
        turned=state.turned if live else None, trump=state.trump if live else None,
        bids=bids,
        bids_in=tuple(b is not None for b in state.bids) if live else (False,) * n,
        taken=state.taken if live else (0,) * n,
        leader=state.leader if state.phase == PLAY else None, trick=state.trick,
        tricks=state.tricks if live else (),
        hand=() if seat is None else state.hands[seat],
        hand_counts=tuple(len(h) for h in state.hands), scores=state.scores,
        sheet=state.sheet, last=_last(state, seat))


# -- the common part ---------------------------------------------------------------------------
_SUIT_KEYS = {"S": "wizard.suit.S", "H": "wizard.suit.H", "D": "wizard.suit.D",
              "C": "wizard.suit.C"}
def card_arg(card: str) -> str:
    """A card as a caption argument: Wizards and Jesters by name (a key), others as codes."""
    if is_wizard(card):
        return "wizard.card.wizard"
    if is_jester(card):
        return "wizard.card.jester"
    return card


def last_caption(last: LastMove) -> Caption:
    if last.kind == "trump":
        return Caption("wizard.last.trump", (("seat", last.seat),
                                             ("suit", _SUIT_KEYS[last.suit])))
    if last.kind == "bid":
        if last.tricks is None:
            return Caption("wizard.last.bid_hidden", (("seat", last.seat),))
        return Caption("wizard.last.bid", (("seat", last.seat), ("n", last.tricks)))
    return Caption("wizard.last.play", (("seat", last.seat), ("card", card_arg(last.card))))


def build_common(view: WizardView) -> Common:
    """One status line (phones have little height above the hand): the round and, while it is
    played, trump; once a round is scored, which one."""
    rounds = (("round", view.round), ("rounds", view.rounds))
    if view.phase in ACTING:
        cap = (Caption("wizard.round_trump", (*rounds, ("suit", _SUIT_KEYS[view.trump])))
               if view.trump else Caption("wizard.round_no_trump", rounds))
    elif view.phase in ("round_over", "game_over") and view.sheet:
        cap = Caption("wizard.round_scored", (("round", view.sheet[-1].round),))
    else:
        cap = Caption("wizard.round", rounds)
    return Common(
        seat=view.seat, to_act=view.to_act, hand=view.hand, hand_counts=view.hand_counts,
        teams=tuple(range(view.players)), scores=view.scores, phase=view.phase,
        last=last_caption(view.last) if view.last else None, captions=(cap,),
        badges=tuple((Caption("wizard.field.dealer"),) if s == view.dealer else ()
                     for s in range(view.players)),
        seat_notes=tuple(_note(view, s) for s in range(view.players)), sheet=_sheet(view))


def _sheet(view: WizardView) -> Sheet | None:
    """The score sheet of the finished rounds (public to every seat alike): per seat its bid,
    tricks taken, the round's points and the running total; the totals to close it."""
    if not view.sheet:
        return None
    seats = range(view.players)

    def cell(r: RoundResult, s: int) -> Caption:
        points = f"+{r.points[s]}" if r.points[s] > 0 else str(r.points[s])
        return Caption("wizard.sheet.cell", (("bid", r.bids[s]), ("taken", r.taken[s]),
                                             ("points", points), ("total", r.totals[s])))

    def number(n: int) -> Caption:
        return Caption("wizard.sheet.number", (("n", n),))

    return Sheet(
        title=Caption("wizard.field.sheet"), legend=Caption("wizard.sheet_legend"),
        heads=(Caption("wizard.sheet.round"),
               *(Caption("wizard.sheet.seat", (("seat", s),)) for s in seats)),
        rows=tuple((number(r.round), *(cell(r, s) for s in seats)) for r in view.sheet),
        totals=(Caption("wizard.sheet.total"), *(number(t) for t in view.sheet[-1].totals)))


def _note(view: WizardView, seat: int) -> Caption | None:
    """A seat's bid and tricks while a round is played; a hidden bid only as "has bid"."""
    if view.phase not in ACTING or not view.bids_in[seat]:
        return None
    bid = view.bids[seat]
    if bid is None:  # hidden until every bid is in: the view never holds it
        return Caption("wizard.has_bid")
    return Caption("wizard.note", (("bid", bid), ("taken", view.taken[seat])))
