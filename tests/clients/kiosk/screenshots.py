"""Regenerate the kiosk screenshots in the documentation from real AI games.

    python -m tests.clients.kiosk.screenshots docs/img

Each picture is drawn exactly as the kiosk draws a frame, from spectator states built by
``bench.samples`` or by ``spectator_states`` here (so nothing hidden can be in them either).
The helpers are shared with the kiosk tests.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

import msgspec

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from bench.samples import GAMES, OPTIONS, WELCOME, Sample, play_samples, seats_for
from clients.kiosk.model import Model
from clients.kiosk.render import Screen
from engine import registry
from engine.codec import to_data
from engine.match import Match
from hostd.protocol.messages import State, encode, host_decoder

# (file, game, moment, language, size, table name)
SHOTS = [
    ("kiosk-sequence.png", "sequence", "late", "en", (1280, 720), "Window table"),
    ("kiosk-euchre.png", "euchre", "middle", "en", (1280, 720), "Terrace"),
    ("kiosk-euchre-hand-fr.png", "euchre", "between", "fr", (1280, 720), "Terrasse"),
    ("kiosk-president-ar.png", "president", "late", "ar", (1280, 720), "الطاولة الكبيرة"),
    ("kiosk-president-touch.png", "president", "between", "en", (800, 480), "Bar"),
]
# Drawn from a random game's state with its common part, as the host sends it: a game the grid
# family draws with a seven-line hook (what a cell's letter means).
FAMILY_SHOTS = [("kiosk-checkers.png", "checkers", "en", (1280, 720), "Corner table")]
SPLIT = ("kiosk-split.png", (1920, 1080))
# Between hands: the common part's score sheet over the table (Wizard's, drawn for any game by
# clients/kiosk/games/sheet.py), after this many hands.
BETWEEN_SHOTS = [("kiosk-wizard-sheet.png", "wizard", 4, "en", (1280, 720), "Round table"),
                 ("kiosk-wizard-sheet-ar.png", "wizard", 4, "ar", (1280, 720), "طاولة الجولات")]


def renamed(sample: Sample, name: str, table: str = "t1", code: str = "K7QF") -> Sample:
    state = msgspec.structs.replace(sample.state, name=name, table=table, code=code)
    return Sample(sample.game, sample.label, state)


def _message(match: Match, game: str, version: int, seats: Any) -> State:
    outcome = match.outcome()
    view = match.view(None)
    msg = State(table="t1", game=game, version=version, seat=None, view=to_data(view), legal=[],
                to_act=list(match.to_act()), seats=seats,
                outcome=to_data(outcome) if outcome is not None else None, name="Table K",
                code="K7QF", status="finished" if outcome is not None else "playing",
                common=to_data(match.game.common(view)))
    decoded = host_decoder.decode(encode(msg))
    assert isinstance(decoded, State)
    return decoded


def spectator_states(game: str, seed: int = 5, every: int = 23) -> list[State]:
    """Spectator states of one game played by random legal moves, every ``every`` moves."""
    g = registry.get(game)
    match = Match.start(g, GAMES[game], OPTIONS.get(game), seed)
    seats = seats_for(match.players, match.teams())
    rng = random.Random(seed)
    out: list[State] = []
    for version in range(3000):
        if match.outcome() is not None:
            break
        if not match.to_act():
            if not match.resolve_chance():
                break
            continue
        if version % every == 0:
            out.append(_message(match, game, version, seats))
        legal = match.legal(match.to_act()[0])
        match.act(match.to_act()[0], legal[rng.randrange(len(legal))])
    out.append(_message(match, game, 3000, seats))
    return out


def between_state(game: str, hands: int, seed: int = 5) -> State:
    """The spectator's state in the pause after ``hands`` hands of a random game."""
    match = Match.start(registry.get(game), GAMES[game], OPTIONS.get(game), seed)
    seats = seats_for(match.players, match.teams())
    rng = random.Random(seed)
    done = 0
    for version in range(20000):
        if not match.to_act():
            if match.game.between_hands(match.state):
                done += 1
                if done == hands:
                    return _message(match, game, version, seats)
            assert match.resolve_chance(), "the game ended first"
            continue
        legal = match.legal(match.to_act()[0])
        match.act(match.to_act()[0], legal[rng.randrange(len(legal))])
    raise AssertionError("never reached")


def model_for(*picks: Sample) -> Model:
    """A kiosk's model that was sent these tables, and each game's presentation descriptor as
    the catalogue has it (the sample messages do not carry one)."""
    m = Model("127.0.0.1")
    m.link_up(WELCOME, 0.0)
    m.on_tables([p.summary for p in picks], 0.0)
    for p in picks:
        m.on_state(p.state, 0.0)
        if p.game in registry.ids() and p.game not in m.presentations:
            m.learn(p.game, to_data(registry.get(p.game).info.presentation))
    return m


def draw(picks: list[Sample], lang: str, size: tuple[int, int], path: Path) -> None:
    model = model_for(*picks)
    surface = pygame.Surface(size)
    Screen(lang).frame(surface, model, now=3.0)
    pygame.image.save(surface, str(path))
    print(path)


def main(out: Path) -> None:
    pygame.display.init()
    out.mkdir(parents=True, exist_ok=True)
    samples = {g: {s.label: s for s in play_samples(g)} for g in ("sequence", "euchre",
                                                                   "president")}
    for file, game, moment, lang, size, name in SHOTS:
        draw([renamed(samples[game][moment], name)], lang, size, out / file)
    for file, game, lang, size, name in FAMILY_SHOTS:
        states = spectator_states(game)
        draw([renamed(Sample(game, "middle", states[len(states) // 2]), name)], lang, size,
             out / file)
    for file, game, hands, lang, size, name in BETWEEN_SHOTS:
        draw([renamed(Sample(game, "between", between_state(game, hands)), name)], lang, size,
             out / file)
    split = [renamed(samples["sequence"]["middle"], "Window table", "t1", "K7QF"),
             renamed(samples["euchre"]["late"], "Terrace", "t2", "M3XH"),
             renamed(samples["president"]["middle"], "Bar", "t3", "Q9DA")]
    draw(split, "en", SPLIT[1], out / SPLIT[0])


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
