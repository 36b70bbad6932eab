"""The web client's files: small, self-contained, and translated for every key the host sends.

Message keys are collected from the code that sends them (the daemon's notices, goodbyes and
error codes; each game's captions, results and refusal codes), so a new key without a
translation fails here rather than showing up as raw text on a phone.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from clients.strings import catalogue as strings_catalogue
from clients.strings import game_strings
from engine import registry
from engine.ai import LEVELS
from hostd.protocol import codes

ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "clients" / "web"
LANGS = ("en", "fr", "ar")
# Bytes before compression (there are no fonts). A phone fetches the shell, one family
# renderer, one game's hook and two catalogues of one language: that is what must stay small
# on a weak café Wi-Fi or a Bluetooth link, whatever the number of games in the catalogue.
BUDGET = 150 * 1024  # what a phone loads to play one game in one language
ALL_FILES = 400 * 1024  # every file of the page together: a ceiling, not what a phone loads
STRINGS = ROOT / "clients" / "strings"


def catalogue(lang: str) -> dict[str, str]:
    """What the page can say in ``lang``: the shell's strings and every game's catalogue."""
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    overlap = set(data) & set(game_strings(lang))
    assert not overlap, f"in the shell and a game's catalogue both: {sorted(overlap)}"
    return {**data, **game_strings(lang)}


def js_sources() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(WEB.rglob("*.js"))}


def string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def host_keys() -> set[str]:
    """Every notice/bye key in the daemon's source, and error.<code> for every stable code."""
    keys = set()
    for path in (ROOT / "hostd").rglob("*.py"):
        keys |= {s for s in string_literals(path) if re.fullmatch(r"(notice|bye)\.[a-z_]+", s)}
    keys |= {f"error.{v}" for k, v in vars(codes).items() if k.isupper() and isinstance(v, str)}
    return keys


def game_keys() -> set[str]:
    """Each game's message keys (captions, results, reasons) and its refusal codes."""
    keys = set()
    for game_id in registry.ids():
        package = ROOT / "engine" / game_id
        for path in package.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            # A literal ending in "." or "_" is the head of a key built at run time
            # (f"president.title.{title}"), not a key.
            keys |= {s for s in string_literals(path)
                     if re.fullmatch(rf"{game_id}\.[a-z_.]*[a-z]", s)}
            # Refusal codes: the constants a game passes to IllegalAction / its _illegal helper.
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            names = set(re.findall(r"(?:IllegalAction|_illegal|_refuse)\(\s*([A-Z][A-Z_]+)\b", text))
            if names:
                mod = __import__(module, fromlist=["_"])
                keys |= {f"error.{getattr(mod, n)}" for n in names if isinstance(getattr(mod, n, None), str)}
    return keys


def test_every_language_has_every_key() -> None:
    en = set(catalogue("en"))
    for lang in LANGS[1:]:
        other = set(catalogue(lang))
        assert en - other == set(), f"{lang} lacks {sorted(en - other)}"
        # A language may only add card-face overrides (Arabic President uses V D R).
        assert {k for k in other - en if not k.startswith("face.")} == set()


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match_english(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    for key, text in other.items():
        if key in en:
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key])), key


def test_every_key_the_host_and_the_games_send_is_translated() -> None:
    en = catalogue("en")
    missing = sorted(k for k in host_keys() | game_keys() if k not in en)
    assert missing == []
    # The collectors found real keys (a broken scan must not pass silently).
    assert "notice.taken_over" in host_keys() and "error.stale_version" in host_keys()
    assert {"sequence.card.remove", "euchre.card.left_bower"} <= game_keys()


def test_every_key_the_page_uses_is_in_english() -> None:
    en = catalogue("en")
    used = set()
    for src in js_sources().values():
        for call in re.finditer(r"\bt\(([^()]*)", src):
            used |= set(re.findall(r'"([a-z]+\.[a-z_.0-9]+)"', call.group(1)))
    assert used and sorted(k for k in used if k not in en) == []
    # Keys built from values the host sends: every value they can take.
    families = {
        "level": LEVELS,
        "lobby.status": ("playing", "finished", "closed"),
        "settings.anim": ("off", "slow", "normal", "fast"),
        "sequence.tap": ("place", "wild", "remove"),
        "sequence.last": ("place", "wild", "remove", "double", "exchange_dead", "discard"),
        "euchre.turned": ("up", "taken", "turned_down", "set_aside"),
        "euchre.bid": ("pass", "order_up", "pick_up", "name"),
        "president.title": ("president", "vice_president", "citizen", "vice_scum", "scum"),
        "suit": "SHDC",
        "rank": "A23456789TJQK",
        "face": "A23456789TJQK",
    }
    for prefix, values in families.items():
        assert [f"{prefix}.{v}" for v in values if f"{prefix}.{v}" not in en] == []
    # Every registered game is named in its own catalogue, in every language.
    for lang in LANGS:
        assert [g for g in registry.ids() if f"{g}.name" not in strings_catalogue(g, lang)] == []


def first_load(game: str, lang: str) -> int:
    """The bytes a phone fetches to play ``game`` in ``lang``: every shell file, the family's
    renderer (or the generic one) with its helpers, the game's hook, and the catalogues."""
    games = WEB / "games"
    shell = [p for p in WEB.rglob("*") if p.is_file() and games not in p.parents
             and p.parent != WEB / "i18n"]
    family = registry.get(game).info.presentation.family
    parts = [games / "common.js", games / "generic.js", games / f"{family}.js",
             games / "hooks" / f"{game}.js", WEB / "i18n" / f"{lang}.json",
             STRINGS / game / f"{lang}.json"]
    return sum(p.stat().st_size for p in [*shell, *parts] if p.is_file())


def test_the_page_is_small_and_loads_nothing_from_elsewhere() -> None:
    files = [p for p in WEB.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    assert total < ALL_FILES, f"{total} bytes"
    loads = {(g, lang): first_load(g, lang) for g in registry.ids() for lang in LANGS}
    assert max(loads.values()) < BUDGET, loads
    external = re.compile(r"""(?:src|href)=["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//|"""
                          r"""(?:from|import\()\s*["'](?:https?:)?//|fetch\(\s*["'`](?:https?:)?//""")
    for p in files:
        if p.suffix in {".html", ".js", ".css"}:
            assert not external.search(p.read_text(encoding="utf-8")), p.name
    # No build step: the page is the files themselves, modules loaded by relative paths.
    assert '<script type="module" src="app.js">' in (WEB / "index.html").read_text(encoding="utf-8")


FAMILY_FILES = ("common.js", "generic.js", "grid_board.js", "shedding.js", "trick_taking.js")
HOOK_LINES = 100  # a game's own part of its family's drawing stays small (docs/web-client.md)


def test_the_family_renderers_know_no_game() -> None:
    """A family renderer reads the descriptor and the view, never a game id: a game's own
    drawing is in its hook (games/hooks/<id>.js), and the shell picks hooks, not renderers."""
    games = WEB / "games"
    for name in FAMILY_FILES:
        code = (games / name).read_text(encoding="utf-8")
        named = [g for g in registry.ids() if re.search(rf"""["'`/.]{g}\b|\b{g}["'`.]""", code)]
        assert named == [], f"{name} names {named}"
    app = (WEB / "app.js").read_text(encoding="utf-8")
    assert "RENDERERS" not in app and "games/generic.js" in app
    for family in ("trick_taking", "shedding", "grid_board"):
        assert f"./games/{family}.js" in app
    # The bespoke per-game renderers are gone; each hook is a game's (one with an engine
    # package: it may be registered later), listed in the shell, and small.
    assert not [p.name for p in games.glob("*.js") if p.stem in registry.ids()]
    hooks = sorted((games / "hooks").glob("*.js"))
    assert {"sequence", "euchre", "president"} <= {p.stem for p in hooks}
    for p in hooks:
        assert (ROOT / "engine" / p.stem / "__init__.py").is_file(), p.name
        assert f'{p.stem}: () => import("./games/hooks/{p.name}")' in app
        lines = len(p.read_text(encoding="utf-8").splitlines())
        assert lines < HOOK_LINES, f"{p.name}: {lines} lines"


def test_gesture_types_name_the_games_actions() -> None:
    """A gesture that names the action types it enters (engine/presentation.py Gesture.types)
    names real ones, each carrying the gesture's fields: the grid_board renderer lights a
    square only for those."""
    from dataclasses import fields

    from engine.codec import tag_of

    named = 0
    for game_id in registry.ids():
        game = registry.get(game_id)
        actions = {tag_of(cls): {f.name for f in fields(cls)} for cls in game.action_types}
        for g in game.info.presentation.gestures:
            for kind in g.types:
                named += 1
                assert kind in actions, f"{game_id}: no action {kind!r}"
                assert set(g.fields) <= actions[kind], f"{game_id}: {kind} lacks {g.fields}"
    assert named, "Sequence names the types its squares enter"
