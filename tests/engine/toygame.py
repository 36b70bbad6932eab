"""A tiny game used only to test the rules interface machinery (not in the catalogue).

Two to four players are dealt two cards each from a twelve-card deck; in turn each plays one
card face up; when every hand is empty the highest total wins (ties share the win).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Common

DECK = tuple(f"{r}S" for r in "A23456789TJQ")
VALUE = {c: i + 1 for i, c in enumerate(DECK)}


@dataclass(frozen=True)
class Play:
    card: str


@dataclass(frozen=True)
class Deal:
    deck: tuple[str, ...]


@dataclass(frozen=True)
class ToyView:
    seat: int | None
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    played: tuple[tuple[str, ...], ...]
    to_act: tuple[int, ...]


@dataclass(frozen=True)
class ToyState:
    players: int
    seed: int
    chances: int
    hands: tuple[tuple[str, ...], ...] | None
    played: tuple[tuple[str, ...], ...]
    turn: int


class ToyGame(Game[ToyState]):
    info = GameInfo(
        id="toy", title="Toy", players=(2, 3, 4), default_players=2, rules_version="1",
        summary="test only", teams="each for themselves",
        options=(Option("bonus", "int", 0, "added to seat 0's total", minimum=0, maximum=5),),
    )
    action_types = (Play,)
    chance_types = (Deal,)

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> ToyState:
        return ToyState(players, seed, 0, None, tuple(() for _ in range(players)), 0)

    def chance_outcome(self, state: ToyState) -> Deal | None:
        if state.hands is not None:
            return None
        deck = list(DECK)
        chance_rng(state.seed, state.chances).shuffle(deck)
        return Deal(tuple(deck))

    def apply_chance(self, state: ToyState, outcome: Any) -> ToyState:
        if state.hands is not None:
            raise IllegalAction(errors.NO_CHANCE_PENDING)
        if not isinstance(outcome, Deal) or sorted(outcome.deck) != sorted(DECK):
            raise IllegalAction(errors.BAD_CHANCE, "a deal is a permutation of the deck")
        hands = tuple(outcome.deck[2 * i : 2 * i + 2] for i in range(state.players))
        return replace(state, hands=hands, chances=state.chances + 1)

    def to_act(self, state: ToyState) -> tuple[int, ...]:
        if state.hands is None or self.outcome(state) is not None:
            return ()
        return (state.turn,)

    def legal_actions(self, state: ToyState, seat: int) -> tuple[Play, ...]:
        if seat not in self.to_act(state):
            return ()
        assert state.hands is not None
        return tuple(Play(c) for c in state.hands[seat])

    def apply(self, state: ToyState, seat: int, action: Any) -> ToyState:
        if self.outcome(state) is not None:
            raise IllegalAction(errors.GAME_OVER)
        if seat not in self.to_act(state):
            raise IllegalAction(errors.NOT_YOUR_TURN)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(errors.ILLEGAL_ACTION, "play a card from your hand")
        assert state.hands is not None
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != action.card)
        played = list(state.played)
        played[seat] = (*played[seat], action.card)
        return replace(state, hands=tuple(hands), played=tuple(played),
                       turn=(seat + 1) % state.players)

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        hands = state.hands or tuple(() for _ in range(state.players))
        return ToyView(
            seat=seat,
            hand=hands[seat] if seat is not None else (),
            hand_counts=tuple(len(h) for h in hands),
            played=state.played,
            to_act=self.to_act(state),
        )

    def common(self, view: ToyView) -> Common:
        players = len(view.hand_counts)
        done = all(n == 0 for n in view.hand_counts) and any(view.played)
        return Common(
            seat=view.seat, to_act=view.to_act, hand=view.hand, hand_counts=view.hand_counts,
            teams=tuple(range(players)),
            scores=tuple(sum(VALUE[c] for c in p) for p in view.played),
            phase="over" if done else "play")

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.hands is None or any(state.hands):
            return None
        totals = [sum(VALUE[c] for c in p) for p in state.played]
        best = max(totals)
        return Outcome(tuple(i for i, t in enumerate(totals) if t == best), tuple(totals), "toy.high")

    def resample_hidden(self, state: ToyState, seat: int | None, rng: random.Random) -> ToyState:
        if state.hands is None:
            return replace(state, seed=rng.randrange(2**31))
        hidden = [c for i, h in enumerate(state.hands) if i != seat for c in h]
        played = {c for p in state.played for c in p}
        mine = set(state.hands[seat]) if seat is not None else set()
        pool = [c for c in DECK if c not in played and c not in mine]
        rng.shuffle(pool)
        it = iter(pool)
        hands = tuple(
            h if i == seat else tuple(next(it) for _ in h) for i, h in enumerate(state.hands)
        )
        assert len(hidden) <= len(pool)
        return replace(state, hands=hands, seed=rng.randrange(2**31))


GAME = ToyGame()
