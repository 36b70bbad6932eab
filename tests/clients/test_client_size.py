"""Client code per game stays under 100 lines (issue 14's measure: ``wc -l``, blank lines too).

A game's own client code is its web hook (``clients/web/games/hooks/<id>.js``), its block of
``clients/web/style.css`` (in the section of each game's own part, a block opens with a comment
naming the game, ``/* Euchre: ...``, or games, ``/* Checkers and Chess: ...``, and runs to the
next comment) and its kiosk hook (``clients/kiosk/games/<id>.py``). Family renderers, the shell
and string catalogues are shared and not counted. What a family can draw from the view's common
part (engine/presentation.py) belongs there, once, not in every game's hooks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 100
SECTION = "/* -- each game's own part"


def lines(path: Path) -> int:
    """``wc -l``: the newlines in the file (0 when the game has no such file)."""
    return path.read_text(encoding="utf-8").count("\n") if path.exists() else 0


def css_blocks(css: str) -> dict[str, int]:
    """Lines of each game's block in style.css, by game title, from the per-game section."""
    out: dict[str, int] = {}
    names: list[str] = []
    inside = False
    for line in css.splitlines():
        if line.startswith("/* --"):
            inside = line.startswith(SECTION)
            names = []
            continue
        if not inside:
            continue
        head = re.match(r"/\* ([^:*]+):", line)
        if head:
            names = [n.strip() for n in re.split(r",| and ", head.group(1)) if n.strip()]
        for name in names:
            out[name] = out.get(name, 0) + 1
    return out


def client_lines(game_id: str) -> dict[str, int]:
    css = css_blocks((ROOT / "clients/web/style.css").read_text(encoding="utf-8"))
    return {
        "web hook": lines(ROOT / f"clients/web/games/hooks/{game_id}.js"),
        "css": css.get(registry.get(game_id).info.title, 0),
        "kiosk hook": lines(ROOT / f"clients/kiosk/games/{game_id}.py"),
    }


def test_the_counter_reads_the_css_blocks() -> None:
    css = ("a {}\n/* -- each game's own part (hooks) ---- */\n/* Euchre: the turned card. */\n"
           ".turned {}\n.trump {}\n/* Checkers and Chess: squares. */\n.sq {}\n"
           "/* -- results ---- */\n/* Euchre: not its block */\n.x {}\n")
    assert css_blocks(css) == {"Euchre": 3, "Checkers": 2, "Chess": 2}


@pytest.mark.parametrize("game_id", registry.ids())
def test_client_code_per_game_is_under_100_lines(game_id: str) -> None:
    parts = client_lines(game_id)
    total = sum(parts.values())
    assert total < LIMIT, f"{game_id}: {parts} = {total} lines"
