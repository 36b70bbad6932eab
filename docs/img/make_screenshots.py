"""Screenshots of the web client: every registered game in each language, on a phone.

Run from the checkout: ``.venv/bin/python docs/img/make_screenshots.py`` (``--out DIR``,
``--games a,b`` and ``--langs en,ar`` narrow it). It starts a daemon on loopback (a temporary
data directory), opens a table of each game of the registry with a fixed seed, joins it in
Debian's Chromium, plays a few moves by clicking (the browser tests' generic driver), shows
what a tap does, and saves ``web-<game>-<lang>.png`` (and ``web-lobby-en.png``, and
``web-sequence-lines-en.png``: a finished Sequence with its completed lines).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from engine import registry  # noqa: E402
from tests.clients.web.harness import (  # noqa: E402
    CHROMIUM,
    PHONE,
    Box,
    join,
    play_to_end,
    running_box,
    wait_for_turn_or_end,
)

# Seed and moves before the shot where a game's first turns show little; others: 7 and 3.
SHOTS = {"sequence": (4, 8), "euchre": (5, 3), "president": (2, 4)}
# A panel to open for the shot where it is what the game adds (Wizard's score sheet).
PANELS = {"wizard": "scores"}
LANGS = ("en", "fr", "ar")
NAMES = {"en": "Ana", "fr": "Léa", "ar": "ليلى"}


def settings_script(lang: str) -> str:
    value = json.dumps(json.dumps({"lang": lang, "animation": "off"}))
    return f"localStorage.setItem('tablebox.settings', {value});"


def seated(context: Any, box: Box, game: str, seed: int, name: str) -> Any:
    """A new page of ``context`` seated at a new held table of ``game``."""
    page = context.new_page()
    with box.held_table(game, seed=seed) as table:
        join(page, box.url, table["code"], name)
    return page


def snap(page: Any, path: Path) -> None:
    # Notices fade after a few seconds; the holder's "left" would cover the seats.
    page.evaluate("() => { document.getElementById('toast').hidden = true; }")
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--games", default=",".join(registry.ids()))
    ap.add_argument("--langs", default=",".join(LANGS))
    args = ap.parse_args()
    games, langs = args.games.split(","), args.langs.split(",")
    with tempfile.TemporaryDirectory() as tmp, running_box(Path(tmp) / "box") as box, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        shot = {**PHONE, "device_scale_factor": 1}
        for lang in langs:
            context = browser.new_context(**shot)
            context.add_init_script(settings_script(lang))
            for game in games:
                seed, moves = SHOTS.get(game, (7, 3))
                page = seated(context, box, game, seed, NAMES[lang])
                play_to_end(page, game, stop_after=moves)
                wait_for_turn_or_end(page)
                # Show what a tap does: select a card (Sequence lights its squares up).
                cards = page.locator("#game .hand button.card[aria-pressed=false]:not([disabled]):not(.dim)")
                if cards.count():
                    cards.first.click()
                if game in PANELS:
                    page.click(f"[data-key=social-{PANELS[game]}]")
                    page.wait_for_selector(f"#social-panel[data-panel={PANELS[game]}]")
                snap(page, args.out / f"web-{game}-{lang}.png")
                page.close()
            context.close()
        # A finished Sequence: the completed lines struck through in each team's colour.
        if "sequence" in games and "en" in langs:
            context = browser.new_context(**shot)
            context.add_init_script(settings_script("en"))
            page = seated(context, box, "sequence", 7, NAMES["en"])
            play_to_end(page, "sequence")
            snap(page, args.out / "web-sequence-lines-en.png")
            context.close()
        # The lobby, as a newcomer sees it (no seat remembered).
        context = browser.new_context(**shot)
        context.add_init_script(settings_script("en"))
        page = context.new_page()
        page.goto(box.url + "/")
        page.wait_for_selector(".table-list")
        page.screenshot(path=str(args.out / "web-lobby-en.png"))
        context.close()
        browser.close()
    print("screenshots written to", args.out)


if __name__ == "__main__":
    main()
