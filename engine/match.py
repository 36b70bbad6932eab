"""A game in progress: one game object, its current state, and every step taken so far.

``Match`` is the only thing that keeps history. It is a small mutable shell around the game's
immutable states: an accepted step replaces the state and appends to ``steps``; a refused one
raises ``IllegalAction`` and changes nothing. It never resolves chance on its own: callers
(hosts, self-play, replay) call ``resolve_chance`` so that a host can pause between a scored
hand and the next deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import errors
from engine.codec import to_data
from engine.errors import CodecError, IllegalAction
from engine.game import Game, Outcome


# Steps are read-only by convention, not frozen: a frozen dataclass sets each field through
# object.__setattr__, which made building the step a third of Match.act's cost (one per move).
@dataclass(slots=True)
class ChanceStep:
    outcome: Any


@dataclass(slots=True)
class ActionStep:
    seat: int
    action: Any


Step = ChanceStep | ActionStep


class Match:
    def __init__(self, game: Game[Any], players: int, options: Mapping[str, Any], seed: int) -> None:
        """Start a game. ``options`` must already be validated (``Game.validate``)."""
        self.game = game
        self.players = players
        self.options = dict(options)
        self.seed = seed
        self.state: Any = game.new_state(players, self.options, seed)
        self.steps: list[Step] = []

    @classmethod
    def start(
        cls,
        game: Game[Any],
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        *,
        resolve: bool = True,
    ) -> Match:
        """Validate ``options`` for ``players`` seats, create the match, and deal if asked."""
        n = game.info.default_players if players is None else players
        m = cls(game, n, game.validate(n, options), seed)
        if resolve:
            m.resolve_chance()
        return m

    # -- reading --------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act(self.state)

    def legal(self, seat: int) -> tuple[Any, ...]:
        return self.game.legal_actions(self.state, seat)

    def view(self, seat: int | None) -> Any:
        return self.game.view(self.state, seat)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def chance_pending(self) -> bool:
        return self.game.chance_outcome(self.state) is not None

    def teams(self) -> tuple[int, ...]:
        return self.game.teams(self.players, self.options)

    # -- changing -------------------------------------------------------------------------
    def decode_action(self, data: Any) -> Any:
        """A wire/record action as this game's dataclass, or IllegalAction(BAD_ACTION)."""
        try:
            return self.game.actions.decode(data)
        except CodecError as e:
            raise IllegalAction(errors.BAD_ACTION, str(e)) from None

    def act(self, seat: int, action: Any) -> None:
        """Apply one seat's action, or raise IllegalAction leaving everything unchanged."""
        self.state = self.game.apply(self.state, seat, action)
        self.steps.append(ActionStep(seat, action))

    def apply_chance(self, outcome: Any) -> None:
        """Apply a pinned chance outcome (from a record), or raise IllegalAction."""
        if not self.chance_pending():
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no chance step is pending")
        self.state = self.game.apply_chance(self.state, outcome)
        self.steps.append(ChanceStep(outcome))

    def resolve_chance(self) -> list[ChanceStep]:
        """Draw and apply every pending chance step from the seed; return what was applied."""
        chance_outcome = self.game.chance_outcome
        outcome = chance_outcome(self.state)
        if outcome is None:  # after nearly every move: one look and out
            return []
        done: list[ChanceStep] = []
        while outcome is not None:
            self.state = self.game.apply_chance(self.state, outcome)
            step = ChanceStep(outcome)
            self.steps.append(step)
            done.append(step)
            outcome = chance_outcome(self.state)
        return done

    # -- records --------------------------------------------------------------------------
    def step_data(self, step: Step) -> dict[str, Any]:
        if isinstance(step, ChanceStep):
            return {"chance": to_data(step.outcome)}
        return {"seat": step.seat, "action": to_data(step.action)}
