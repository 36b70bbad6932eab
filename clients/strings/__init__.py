"""The string catalogues: one per game (``clients/strings/<game>/<lang>.json``), read by the web
page (served at ``/strings/``), the kiosk and the terminal alike, and one shell catalogue for
what every game shares (``clients/web/i18n/<lang>.json``, served to the page as ``i18n/``).

A game's catalogue holds every key its engine sends (captions, results, reasons, refusal
codes are in the shell) and every key a client draws for it, in English, French and Arabic;
English is complete and the others may only add card-face overrides (``face.<game>.*``).
This module only reads those files; it never decides what a key means. A game without a
catalogue yet simply has none: clients show the readable form of its keys.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent
LANGUAGES = ("en", "fr", "ar")


def games() -> tuple[str, ...]:
    """The games that have a catalogue, by id."""
    return tuple(sorted(p.name for p in ROOT.iterdir() if (p / "en.json").is_file()))


@functools.cache
def catalogue(game: str, lang: str) -> dict[str, str]:
    """One game's strings in one language; empty when it has none in that language."""
    path = ROOT / game / f"{lang}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {str(k): str(v) for k, v in data.items()}


SHELL = ROOT.parent / "web" / "i18n"  # served to the web page as i18n/<lang>.json


@functools.cache
def shell_strings(lang: str) -> dict[str, str]:
    """The strings every game shares (the lobby, seats, errors, notices, the kiosk's frame)."""
    data = json.loads((SHELL / f"{lang}.json").read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def game_strings(lang: str) -> dict[str, str]:
    """Every game's strings in ``lang``, merged (keys are prefixed by the game id)."""
    out: dict[str, str] = {}
    for game in games():
        out.update(catalogue(game, lang))
    return out
