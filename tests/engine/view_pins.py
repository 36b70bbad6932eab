"""Pinned view bytes: a digest of every seat's view and legal actions over seeded random games.

Views and legal actions are the wire: a speed-up of how a game builds them must not change a
byte. ``digest`` plays one seeded random game through ``Match``, one chance step at a time
(so the phases before the deal are covered too), and after every step hashes the JSON of the
view of the spectator and of every seat, and the legal actions of every seat. A game's tests
pin these digests, computed once from the code before a change, for each of its variants;
``pinned_tests`` makes the same three tests for each game from its pins.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable, Mapping
from typing import Any

import msgspec
import pytest

from engine.codec import to_data
from engine.game import Game
from engine.match import Match


def render(game: Game[Any], state: Any, players: int, *, backwards: bool = False) -> list[bytes]:
    """The JSON of what a host sends every seat of ``state``: each view (the spectator's
    first), then each seat's legal actions. ``backwards`` builds them in the opposite order
    (the spectator's view last) but lists them the same way."""
    seats: list[int | None] = [None, *range(players)]
    order = seats[::-1] if backwards else seats
    views = {seat: msgspec.json.encode(to_data(game.view(state, seat))) for seat in order}
    out = [views[seat] for seat in seats]
    out += [msgspec.json.encode(to_data(game.legal_actions(state, seat)))
            for seat in range(players)]
    return out


def steps(m: Match, seed: int, max_steps: int = 20_000) -> Any:
    """Drive ``m`` to its end with random legal moves, yielding after each step (and first)."""
    rng = random.Random(seed)
    yield
    for _ in range(max_steps):
        if m.outcome() is not None:
            return
        outcome = m.game.chance_outcome(m.state)
        if outcome is not None:
            m.apply_chance(outcome)
        else:
            to_act = m.to_act()
            seat = to_act[rng.randrange(len(to_act))]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
        yield
    raise AssertionError(f"game did not end in {max_steps} steps")


def digest(game: Game[Any], players: int, options: Mapping[str, object] | None,
           seed: int) -> str:
    """SHA-256 over everything ``render`` gives after every step of one seeded random game."""
    h = hashlib.sha256()
    m = Match.start(game, players, options, seed, resolve=False)
    for _ in steps(m, seed):
        for blob in render(game, m.state, players):
            h.update(len(blob).to_bytes(4, "little"))
            h.update(blob)
    return h.hexdigest()


def check_any_order(game: Game[Any], players: int, options: Mapping[str, object] | None,
                    seed: int) -> None:
    """Views do not depend on what was viewed before (a cache of the public part must key on
    the state, and keep no seat's hand): every state of a game, rendered again newest first,
    seats in the opposite order, with a resampled copy viewed between, gives the same bytes."""
    m = Match.start(game, players, options, seed, resolve=False)
    seen: list[tuple[Any, list[bytes]]] = []
    for _ in steps(m, seed):
        seen.append((m.state, render(game, m.state, players)))
    rng = random.Random(seed)
    for state, blobs in reversed(seen):
        game.view(game.resample_hidden(state, rng.randrange(players), rng), None)
        assert render(game, state, players, backwards=True) == blobs


def check_built_as_init_would(game: Game[Any], players: int,
                              options: Mapping[str, object] | None, seed: int) -> None:
    """A view filled in without its dataclass's ``__init__`` (for speed) holds exactly what
    ``__init__`` would store, in the same order: no field missing, none extra, no check of a
    ``__post_init__`` skipped."""
    m = Match.start(game, players, options, seed, resolve=False)
    for _ in steps(m, seed):
        for seat in [None, *range(players)]:
            v = game.view(m.state, seat)
            rebuilt = type(v)(**{f.name: getattr(v, f.name) for f in dataclasses.fields(v)})
            assert list(vars(v).items()) == list(vars(rebuilt).items())


Pins = list[tuple[int, dict[str, Any], tuple[str, ...]]]  # (players, options, digests of seeds 1-5)


def pinned_tests(game: Game[Any], pins: Pins, few: list[tuple[int, dict[str, Any]]]
                 ) -> tuple[Callable[..., None], Callable[..., None], Callable[..., None]]:
    """A game's three tests: every pin's digests, and on ``few`` of the variants the views
    in any viewing order and as their dataclass's ``__init__`` would build them. A game's
    test module binds them to names starting with ``test_`` so pytest collects them."""

    @pytest.mark.parametrize(("players", "options", "want"), pins,
                             ids=[f"{p}-{o}" for p, o, _ in pins])
    def bytes_as_pinned(players: int, options: dict[str, Any], want: tuple[str, ...]) -> None:
        assert tuple(digest(game, players, options, seed) for seed in range(1, 6)) == want

    @pytest.mark.parametrize(("players", "options"), few)
    def any_order(players: int, options: dict[str, Any]) -> None:
        check_any_order(game, players, options, seed=11)

    @pytest.mark.parametrize(("players", "options"), few)
    def as_init_would(players: int, options: dict[str, Any]) -> None:
        check_built_as_init_would(game, players, options, seed=12)

    return bytes_as_pinned, any_order, as_init_would
