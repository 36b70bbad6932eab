"""The web client in a real Chromium on a phone-sized screen against a real daemon.

Every move is a click on what the page offers; the daemon (its own process) validates it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.clients.web.harness import (
    Box,
    Proxy,
    join,
    my_seat,
    play_one_turn,
    play_to_end,
    wait_for_turn_or_end,
)


@pytest.mark.parametrize("game", ["sequence", "euchre", "president"])
def test_join_by_code_and_play_a_whole_game(box: Box, phone: Any, game: str) -> None:
    page = phone.new_page()
    with box.held_table(game, seed=7) as table:
        join(page, box.url, table["code"])
    seat = my_seat(page)
    moves = play_to_end(page, game)
    assert moves > 0
    results = page.locator(".results")
    assert results.is_visible()
    assert page.locator(".results .winners").inner_text().strip()
    # The host agrees: the game is over and this seat was a person's all along.
    shown = box.table(table["id"])
    assert shown["status"] == "finished"
    mine = next(s for s in shown["seats"] if s["seat"] == seat)
    assert mine["controller"] == "human" and mine["name"] == "Ana"
    # Rematch is offered to a seated player.
    assert page.locator("button[data-key=rematch]").is_enabled()


def test_reload_returns_to_the_seat(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("euchre", seed=11) as table:
        join(page, box.url, table["code"])
    seat = my_seat(page)
    play_to_end(page, "euchre", stop_after=2)
    page.reload()
    page.wait_for_selector(".table-screen .seat.mine")
    assert my_seat(page) == seat
    assert page.locator("#join-name").count() == 0
    # And the seat plays on.
    if wait_for_turn_or_end(page):
        play_one_turn(page, "euchre")


def test_network_drop_and_recover(box: Box, phone: Any) -> None:
    proxy = Proxy(box.http_port)
    try:
        page = phone.new_page()
        with box.held_table("president", seed=5) as table:
            join(page, f"http://127.0.0.1:{proxy.port}", table["code"])
        seat = my_seat(page)
        proxy.cut()
        phone.set_offline(True)
        page.wait_for_selector("#overlay:not([hidden])", timeout=10_000)
        assert re.search("Reconnecting", page.inner_text("#overlay"))
        assert page.get_attribute("#conn", "data-state") == "reconnecting"
        proxy.restore()
        phone.set_offline(False)  # fires "online": the page reconnects at once
        page.wait_for_selector("#overlay", state="hidden", timeout=10_000)
        assert page.get_attribute("#conn", "data-state") == "open"
        assert my_seat(page) == seat
        if wait_for_turn_or_end(page):
            play_one_turn(page, "president")
    finally:
        proxy.close()


def test_a_second_tab_takes_over_and_the_first_is_told(box: Box, phone: Any) -> None:
    first = phone.new_page()
    with box.held_table("sequence", seed=3) as table:
        join(first, box.url, table["code"])
    seat = my_seat(first)
    second = phone.new_page()  # same browser: same storage, same seat token
    second.goto(box.url + "/")
    second.wait_for_selector(".table-screen .seat.mine")
    assert my_seat(second) == seat
    first.wait_for_selector("#overlay:not([hidden]) button[data-key=play-here]")
    assert "another tab" in first.inner_text("#overlay")
    # The first tab does not fight for the seat by itself...
    first.wait_for_timeout(500)
    assert second.locator("#overlay").is_hidden()
    # ...until its player asks to play there again.
    first.click("button[data-key=play-here]")
    first.wait_for_selector("#overlay", state="hidden")
    second.wait_for_selector("#overlay:not([hidden]) button[data-key=play-here]")
    assert my_seat(first) == seat


def test_arabic_lays_the_page_out_right_to_left(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("president", seed=9) as table:
        join(page, box.url, table["code"])
    page.click("#settings-open")
    page.select_option("#set-lang", "ar")
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    page.click("button[data-key=settings-close]")
    assert page.evaluate("() => document.documentElement.lang") == "ar"
    # Mirrored: the settings button sits at the left end of the bar, the title at the right.
    width = page.viewport_size["width"]
    settings = page.locator("#settings-open").bounding_box()
    title = page.locator("#title").bounding_box()
    assert settings["x"] + settings["width"] < width / 2 < title["x"] + title["width"]
    assert page.inner_text("#title") == "الرئيس"
    # President faces in Arabic use the ruleset's French letters: V D R.
    assert "10 V D R A 2" in page.inner_text(".pres-state .order")
    # Server text (a message key) arrives translated.
    assert "المقعد" in page.inner_text(".seats") or "الحاسوب" in page.inner_text(".seats")
    # The choice sticks across a reload.
    page.reload()
    page.wait_for_selector(".table-screen")
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
