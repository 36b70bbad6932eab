"""Kiosk benchmark: how long one frame takes to draw, by screen size, tables and language.

Run: ``.venv/bin/python -m bench.kiosk [--frames N] [--json]``. Frames are drawn headless
(``SDL_VIDEODRIVER=dummy``) from real AI games' spectator states, each with a fresh clock as
the live screen does once a second for the turn timer, after one warm-up frame (fonts, the
Sequence board's face and text caches are built then, as on a running kiosk).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import msgspec
import pygame

from bench.samples import GAMES, WELCOME, Sample, play_samples
from clients.kiosk.model import Model
from clients.kiosk.render import Screen

CASES = [((800, 480), 1), ((1280, 720), 1), ((1920, 1080), 1), ((1920, 1080), 3),
         ((3840, 2160), 1), ((3840, 2160), 3)]


def frame_ms(samples: dict[str, list[Sample]], size: tuple[int, int], tables: int, lang: str,
             frames: int) -> dict[str, Any]:
    model = Model("bench")
    model.link_up(WELCOME, 0.0)
    picks = []
    for i, game in enumerate(list(GAMES)[:tables]):
        state = msgspec.structs.replace(samples[game][2].state, table=f"t{i}", code=f"C{i}")
        picks.append(Sample(game, "late", state))
    model.on_tables([p.summary for p in picks], 0.0)
    for p in picks:
        model.on_state(p.state, 0.0)
    screen = Screen(lang)
    surface = pygame.Surface(size)
    screen.frame(surface, model, 1.0)
    times = []
    for k in range(frames):
        t0 = time.perf_counter()
        screen.frame(surface, model, 2.0 + k)
        times.append((time.perf_counter() - t0) * 1000)
    return {"size": f"{size[0]}x{size[1]}", "tables": tables, "lang": lang,
            "median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pygame.display.init()
    samples = {g: play_samples(g) for g in GAMES}
    rows = [frame_ms(samples, size, n, lang, args.frames)
            for size, n in CASES for lang in ("en", "ar")]
    if args.json:
        print(json.dumps({"machine": platform.machine(), "python": platform.python_version(),
                          "kiosk_frames": rows}))
        return
    print(f"kiosk frame time ({platform.machine()}, Python {platform.python_version()})")
    for r in rows:
        print(f"  {r['size']:>9}  {r['tables']} table(s)  {r['lang']}  "
              f"median {r['median_ms']:6.1f} ms  max {r['max_ms']:6.1f} ms")


if __name__ == "__main__":
    main()
