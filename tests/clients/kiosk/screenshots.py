"""Regenerate the kiosk screenshots in the documentation from real AI games.

    python -m tests.clients.kiosk.screenshots docs/img

Each picture is drawn exactly as the kiosk draws a frame, from spectator states built by
``bench.samples`` (so nothing hidden can be in them either).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import msgspec

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from bench.samples import WELCOME, Sample, play_samples
from clients.kiosk.model import Model
from clients.kiosk.render import Screen

# (file, game, moment, language, size, table name)
SHOTS = [
    ("kiosk-sequence.png", "sequence", "late", "en", (1280, 720), "Window table"),
    ("kiosk-euchre.png", "euchre", "middle", "en", (1280, 720), "Terrace"),
    ("kiosk-euchre-hand-fr.png", "euchre", "between", "fr", (1280, 720), "Terrasse"),
    ("kiosk-president-ar.png", "president", "late", "ar", (1280, 720), "الطاولة الكبيرة"),
    ("kiosk-president-touch.png", "president", "between", "en", (800, 480), "Bar"),
]
SPLIT = ("kiosk-split.png", (1920, 1080))


def renamed(sample: Sample, name: str, table: str = "t1", code: str = "K7QF") -> Sample:
    state = msgspec.structs.replace(sample.state, name=name, table=table, code=code)
    return Sample(sample.game, sample.label, state)


def draw(picks: list[Sample], lang: str, size: tuple[int, int], path: Path) -> None:
    model = Model("127.0.0.1")
    model.link_up(WELCOME, 0.0)
    model.on_tables([p.summary for p in picks], 0.0)
    for p in picks:
        model.on_state(p.state, 0.0)
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
    split = [renamed(samples["sequence"]["middle"], "Window table", "t1", "K7QF"),
             renamed(samples["euchre"]["late"], "Terrace", "t2", "M3XH"),
             renamed(samples["president"]["middle"], "Bar", "t3", "Q9DA")]
    draw(split, "en", SPLIT[1], out / SPLIT[0])


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
