"""Players open tables from the phone, in a real Chromium against a real daemon.

A phone opens a table of every registered game with an option changed from its default, and
the box holds that table with that option; with ``player_tables = false`` the lobby offers
only joining; the sheet fits the three phone sizes with 44 px targets. The two-phone game that
follows an open (QR join, play, log, scores, emote on the kiosk, rematch) is
``test_floor_flow.py``, for every game.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from engine import registry
from engine.catalogue import Option
from engine.errors import OptionError
from tests.clients.web.harness import PHONE, Box

SIZES = {"320x568": (320, 568), "390x844": (390, 844), "844x390": (844, 390)}


@contextlib.contextmanager
def box_with(tmp: Path, config: str) -> Iterator[Box]:
    """A daemon of its own with ``config`` as its file (this module's tables must not meet
    another module's cap, nor theirs this one's)."""
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "config.toml"
    path.write_text(config, encoding="utf-8")
    before = os.environ.get("TABLEBOX_CONFIG")
    os.environ["TABLEBOX_CONFIG"] = str(path)
    try:
        b = Box(tmp / "box")
    finally:
        if before is None:
            del os.environ["TABLEBOX_CONFIG"]
        else:
            os.environ["TABLEBOX_CONFIG"] = before
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture(scope="module")
def open_box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    with box_with(tmp_path_factory.mktemp("open"), "max_tables = 100\n") as b:
        yield b


def changed(o: Option) -> Any:
    """A value of ``o`` other than its default."""
    if o.kind == "bool":
        return not o.default
    if o.kind == "choice":
        return next(c for c in o.choices if c != o.default)
    if o.default is None:
        return o.minimum if o.minimum is not None else 1
    assert isinstance(o.default, int)
    return o.default + 1 if o.maximum is None or o.default < o.maximum else o.default - 1


def one_change(game: str) -> tuple[Option, Any] | None:
    """The first option of ``game`` whose changed value its rules accept alone (the engine's
    own check says so, as the box's will), or None for a game without options."""
    g = registry.get(game)
    for o in g.info.options:
        try:
            g.validate(g.info.default_players, {o.name: changed(o)})
        except OptionError:
            continue
        return o, changed(o)
    assert not g.info.options, f"{game}: no option can be changed alone"
    return None


def set_option(page: Page, o: Option, value: Any) -> None:
    control = page.locator(f"dialog.opener [data-option={o.name}]")
    if o.kind == "bool":
        control.set_checked(bool(value))
    elif o.kind == "choice":
        control.select_option(str(value))
    else:
        control.fill(str(value))


def open_sheet(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.click("button[data-key=open-table]")
    expect(page.locator("dialog.opener[open]")).to_be_visible()
    page.fill("#open-player", name)


def newest(box: Box) -> dict[str, Any]:
    tables: list[dict[str, Any]] = box.cli("tables", "list")["tables"]
    return max(tables, key=lambda t: int(t["id"]))


def test_a_phone_opens_a_table_of_every_game_with_its_options(open_box: Box,
                                                              browser: Browser) -> None:
    context = browser.new_context(**PHONE, locale="en-GB")
    errors: list[str] = []
    context.on("weberror", lambda e: errors.append(str(e.error)))
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())  # "Leave this table?"
    try:
        for game in registry.ids():
            open_sheet(page, open_box.url, "Ana")
            page.select_option("#open-game", game)
            # The game's name and its options' labels come from its catalogue.
            assert page.locator("#open-name").input_value() == \
                page.locator("#open-game option:checked").inner_text()
            change = one_change(game)
            if change is not None:
                set_option(page, *change)
            page.select_option("#open-timer", "60")
            page.fill("#open-name", f"Ana's {game}")
            page.click("button[data-key=open-submit]")
            # Seated at once, and the table's QR invite is on screen for the others.
            page.wait_for_selector(".table-screen .seat.mine", timeout=10_000)
            expect(page.locator("dialog.invite[open] img")).to_be_visible()
            expect(page.locator("dialog.opener")).to_have_count(0)
            shown = open_box.table(newest(open_box)["id"])
            assert shown["game"] == game and shown["name"] == f"Ana's {game}"
            assert shown["turn_timer"] == 60.0
            if change is not None:
                assert shown["options"][change[0].name] == change[1], (game, shown["options"])
            mine = [s for s in shown["seats"] if s["controller"] == "human"]
            assert [s["name"] for s in mine] == ["Ana"]
            page.click("button[data-key=invite-close]")
            page.click("button[data-key=leave]")
            page.wait_for_selector(".lobby")
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_the_sheet_fits_the_phone(open_box: Box, browser: Browser, size: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        open_sheet(page, open_box.url, "Ana")
        page.select_option("#open-game", "backgammon")  # the most options
        m = page.evaluate("""() => {
          const W = innerWidth, H = innerHeight, d = document.querySelector('dialog.opener');
          const box = (e) => e.getBoundingClientRect();
          const controls = [...d.querySelectorAll('button, select, input:not([type=checkbox])')];
          const checks = [...d.querySelectorAll('label.check')];
          const small = [...controls, ...checks].filter((e) => box(e).height < 43.5 ||
              (e.matches('button, select, input') && box(e).width < 43.5))
            .map((e) => `${e.dataset.key || e.textContent.trim().slice(0, 20)} ${box(e).height}`);
          const off = [...controls, ...checks].filter((e) => box(e).right > W + 0.5 || box(e).left < -0.5)
            .map((e) => e.dataset.key || e.textContent.trim());
          const open = box(d.querySelector('[data-key=open-submit]'));
          const form = box(d.querySelector('form'));
          return { W, H, scrollWidth: document.documentElement.scrollWidth, small, off,
                   full: box(d.querySelector('#open-game')).width >= form.width - 1,
                   dialog: box(d).bottom <= H + 0.5 && box(d).top >= -0.5,
                   openInView: open.bottom <= H + 0.5 && open.top >= 0 };
        }""")
        assert m["W"] == width and m["scrollWidth"] <= width, m
        assert m["small"] == [] and m["off"] == [], m
        assert m["full"], m  # the fields use the sheet's width, not a narrow column of it
        # The sheet stays on screen and its Open button in reach without scrolling it.
        assert m["dialog"] and m["openInView"], m
    finally:
        context.close()


def test_with_player_tables_off_the_lobby_offers_only_joining(tmp_path: Path,
                                                              browser: Browser) -> None:
    with box_with(tmp_path, "player_tables = false\n") as off:
        context = browser.new_context(**PHONE, locale="en-GB")
        try:
            page = context.new_page()
            page.goto(off.url)
            page.wait_for_selector(".lobby[data-opening=closed]")
            expect(page.locator("button[data-key=open-table]")).to_have_count(0)
            expect(page.locator("button[data-key=join-submit]")).to_be_visible()
            assert off.cli("tables", "list")["tables"] == []
        finally:
            context.close()


def test_a_refused_open_is_said_in_the_sheet_and_makes_nothing(open_box: Box,
                                                               browser: Browser) -> None:
    context = browser.new_context(**PHONE, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(open_box.url)
        page.click("#settings-open")
        page.select_option("#set-lang", "fr")
        page.click("button[data-key=settings-close]")
        before = len(open_box.cli("tables", "list")["tables"])
        open_sheet(page, open_box.url, "Ana")
        page.select_option("#open-game", "golf")
        # Labels in French from Golf's catalogue.
        expect(page.locator("label[for=opt-end]")).to_have_text("Un trou se termine")
        # Golf's own rule: a required flip cannot go with ending on a knock.
        page.select_option("[data-option=flip]", "mandatory")
        page.select_option("[data-option=end]", "knock")
        page.click("button[data-key=open-submit]")
        error = page.locator("dialog.opener #open-error")
        expect(error).to_contain_text("Cette option n’est pas permise")
        assert len(open_box.cli("tables", "list")["tables"]) == before
        # Changed back, the same sheet opens the table.
        page.select_option("[data-option=end]", "auto")
        page.click("button[data-key=open-submit]")
        page.wait_for_selector(".table-screen .seat.mine", timeout=10_000)
        assert len(open_box.cli("tables", "list")["tables"]) == before + 1
    finally:
        context.close()
