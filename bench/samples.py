"""Real public views for the kiosk tests and benchmarks: games played by computer players through ``Match``.

Each sample is the ``state`` message a spectator would receive at that moment, built with the
protocol's own ``State`` and sent through its encoder and decoder, so the kiosk is tested on
exactly what the wire carries. Seats get names in several scripts, one AI-covered seat and one
disconnected person, so every badge the shell draws appears.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import msgspec

from engine import ai, registry
from engine.codec import to_data
from engine.match import Match
from hostd.protocol.messages import SeatSummary, State, TableSummary, Welcome, encode, host_decoder

NAMES = ("Ana", "بلال", "Cyrielle-Marguerite", "Dmitri", "ليلى", "Zoé")
JOIN_URL = "http://192.168.1.23:8080"
WELCOME = Welcome(box="Café du Coin", join_urls=[JOIN_URL, "http://[fd00::23]:8080"])
# Every registered game, at its default number of seats; President at five, so the layouts
# meet a crowded table and both exchange legs.
SEATS = {"president": 5}
GAMES = {g: SEATS.get(g, registry.get(g).info.default_players) for g in registry.ids()}
# two President rounds: the results between rounds and the card exchange appear too
OPTIONS: dict[str, dict[str, object]] = {"president": {"rounds": 2}}


@dataclass(frozen=True)
class Sample:
    game: str
    label: str  # start, middle, between, end
    state: State

    @property
    def summary(self) -> TableSummary:
        s = self.state
        return TableSummary(id=s.table, code=s.code, name=s.name, game=s.game,
                            title=s.game.capitalize(), players=len(s.seats), free_seats=0,
                            status=s.status, seats=s.seats)


def seats_for(players: int, teams: tuple[int, ...]) -> list[SeatSummary]:
    out = []
    for i in range(players):
        name = NAMES[i % len(NAMES)]
        if i == 1:  # a person who dropped: the AI covers
            out.append(SeatSummary(seat=i, name=name, controller="human", level="normal",
                                   connected=False, covered=True, team=teams[i]))
        elif i == 2:  # an AI seat
            out.append(SeatSummary(seat=i, name="", controller="ai", level="hard",
                                   connected=True, covered=False, team=teams[i]))
        elif i == 3:  # dropped, grace period still running
            out.append(SeatSummary(seat=i, name=name, controller="human", level="normal",
                                   connected=False, covered=False, team=teams[i]))
        else:
            out.append(SeatSummary(seat=i, name=name, controller="human", level="normal",
                                   connected=True, covered=False, team=teams[i]))
    return out


def _message(match: Match, game: str, version: int, seats: list[SeatSummary],
             table: str, code: str) -> State:
    outcome = match.outcome()
    msg = State(
        table=table, game=game, version=version, seat=None,
        view=to_data(match.view(None)), legal=[], to_act=list(match.to_act()), seats=seats,
        deadline=27.0 if match.to_act() else None,
        outcome=to_data(outcome) if outcome is not None else None,
        name=f"Table {code[-1]}", code=code,
        status="finished" if outcome is not None else "playing",
        common=to_data(match.game.common(match.view(None))),
        presentation=to_data(match.game.info.presentation),
    )
    # exactly what a spectator's link carries
    decoded = host_decoder.decode(encode(msg))
    assert isinstance(decoded, State)
    return decoded


def play_samples(game: str, players: int | None = None, seed: int = 3,
                 table: str = "t1", code: str = "K7QF") -> list[Sample]:
    """Spectator states of one whole AI game: the start, the middle, between hands, the end."""
    g = registry.get(game)
    match = Match.start(g, players or GAMES[game], OPTIONS.get(game), seed)
    seats = seats_for(match.players, match.teams())
    levels = ai.LEVELS
    level = next(lv for lv in reversed(levels) if lv in registry.players_for(game))
    bots = [ai.player(game, "random" if i % 2 else level) for i in range(match.players)]
    rngs = [random.Random(f"{seed}:{i}") for i in range(match.players)]
    states: list[State] = []
    between: list[State] = []
    version = 0
    for _ in range(100_000):
        if match.outcome() is not None:
            break
        if not match.to_act():
            if g.between_hands(match.state):
                between.append(_message(match, game, version, seats, table, code))
            if not match.resolve_chance():
                break
            continue
        seat = match.to_act()[0]
        states.append(_message(match, game, version, seats, table, code))
        action = bots[seat].choose(match.view(seat), match.legal(seat), rngs[seat])
        match.act(seat, action)
        version += 1
        if not g.between_hands(match.state):
            match.resolve_chance()
    end = _message(match, game, version, seats, table, code)
    assert end.outcome is not None, f"{game} did not finish"
    picks = [Sample(game, "start", states[0]), Sample(game, "middle", states[len(states) // 2]),
             Sample(game, "late", states[len(states) * 9 // 10])]
    if between:
        picks.append(Sample(game, "between", between[len(between) // 2]))
    picks.append(Sample(game, "end", end))
    return picks


def as_json(sample: Sample) -> bytes:
    return msgspec.json.encode(sample.state)
