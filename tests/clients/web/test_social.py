"""Two phones at one Wizard table (hidden bids), in a real Chromium at 390x844: each reads the
moves in its own seat's words in the Log panel, the Scores panel fills once a round is scored,
and an emote one phone sends shows beside that seat on the other."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser

from tests.clients.web.harness import PHONE, Box, join, play_one_turn

BID = re.compile(r"^(\S+) bid (\d+)\.$")
HIDDEN = re.compile(r"^(\S+) has bid \(hidden until every bid is in\)\.$")


def my_turn(page: Any) -> bool:
    return bool(page.evaluate(
        "() => !!document.querySelector('#status.mine') && !document.querySelector('.game.busy')"))


# Round one is over: the page's round line ("Round 2 / 5") is past it.
SCORED = """() => { const d = document.querySelector('#game .info dd');
    return !!d && !d.textContent.startsWith('1 /'); }"""


def open_panel(page: Any, which: str) -> None:
    if page.get_attribute(f"[data-key=social-{which}]", "aria-expanded") != "true":
        page.click(f"[data-key=social-{which}]")
    page.wait_for_selector(f"#social-panel[data-panel={which}]")


def log_lines(page: Any) -> list[str]:
    open_panel(page, "log")
    lines: list[str] = page.locator("#log-list li").all_inner_texts()
    return lines


def test_two_phones_read_the_log_the_scores_and_each_others_emotes(box: Box,
                                                                     browser: Browser) -> None:
    contexts = [browser.new_context(**PHONE, locale="en-GB") for _ in range(2)]
    errors: list[str] = []
    try:
        for c in contexts:
            c.on("weberror", lambda e: errors.append(str(e.error)))
        ana, ben = (c.new_page() for c in contexts)
        with box.held_table("wizard", "hidden_bids=true", "rounds=5", players=3, seed=11) as t:
            join(ana, box.url, t["code"], "Ana")
            join(ben, box.url, t["code"], "Ben")
        # The holder left: the computer plays seat 0. Play round one (one card each) out.
        for _ in range(40):
            if all(page.evaluate(SCORED) for page in (ana, ben)):
                break
            moved = False
            for page in (ana, ben):
                if my_turn(page):
                    play_one_turn(page, "wizard")
                    moved = True
            if not moved:
                ana.wait_for_timeout(100)
        else:
            raise AssertionError("round one was never scored")

        # The score sheet: the game's own (Wizard's: bid/taken, points and total), one row for
        # round one, a column per player, and the totals the table shows.
        for page in (ana, ben):
            open_panel(page, "scores")
            page.wait_for_selector("#social-panel .sheet-table tbody tr")
            rows = page.locator("#social-panel .sheet-table tbody tr")
            assert rows.count() >= 1
            heads = page.locator("#social-panel .sheet-table thead th").all_inner_texts()
            assert "Ana" in heads and "Ben" in heads and len(heads) == 4
            first = rows.last.locator("td").all_inner_texts()  # round one: the latest is on top
            assert all(re.fullmatch(r"\d+/\d+ [+-]?\d+ -?\d+", x) for x in first), first
            assert len(first) == 3
            totals = page.locator("#social-panel .sheet-table tfoot td").all_inner_texts()
            assert all(re.fullmatch(r"-?\d+", x) for x in totals) and len(totals) == 3

        # The log: the same moves, each in this seat's words.
        lines = {"Ana": log_lines(ana), "Ben": log_lines(ben)}
        for who, got in lines.items():
            assert sum(1 for x in got if " played " in x) >= 3, got
            own = [m.group(2) for x in got if (m := BID.match(x)) and m.group(1) == who]
            assert len(own) == 1, f"{who} does not read their own bid: {got}"
        differ = [(a, b) for a, b in zip(lines["Ana"], lines["Ben"], strict=False) if a != b]
        assert differ, "a hidden bid read the same on both phones"
        for a, b in differ:
            hidden_to_ben, hidden_to_ana = HIDDEN.match(b), HIDDEN.match(a)
            assert bool(hidden_to_ben) != bool(hidden_to_ana), (a, b)
            if hidden_to_ben:
                assert BID.match(a) and BID.match(a).group(1) == "Ana"  # type: ignore[union-attr]
            else:
                assert BID.match(b) and BID.match(b).group(1) == "Ben"  # type: ignore[union-attr]
        # The log keeps growing as moves arrive, without being asked again by the player.
        before = len(lines["Ana"])
        for _ in range(30):
            if len(ana.locator("#log-list li").all_inner_texts()) > before:
                break
            for page in (ana, ben):
                if my_turn(page) and page is ben:
                    play_one_turn(page, "wizard")
            ana.wait_for_timeout(100)
        assert len(ana.locator("#log-list li").all_inner_texts()) > before

        # An emote from Ana shows beside her seat on Ben's phone, with its label.
        ana_seat = ana.get_attribute(".seat.mine", "data-seat")
        open_panel(ana, "react")
        ana.click("[data-key=emote-clap]")
        shown = ben.wait_for_selector(f'.seat[data-seat="{ana_seat}"] .reaction[data-emote=clap]',
                                      timeout=5000)
        assert shown.get_attribute("aria-label") == "Applause"
        assert shown.inner_text() == "👏"
        # ... and goes away after a few seconds.
        ben.wait_for_selector(f'.seat[data-seat="{ana_seat}"] .reaction', state="detached",
                              timeout=8000)
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors


def test_the_panels_fit_the_narrowest_phone_with_44px_targets(box: Box, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 568},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        with box.held_table("golf", seed=3) as t:
            join(page, box.url, t["code"])
            for which in ("log", "scores", "react"):
                open_panel(page, which)
                m = page.evaluate("""() => {
                  const W = innerWidth, H = innerHeight;
                  const els = [...document.querySelectorAll(
                    '.social-toggle, #social-panel button')];
                  return els.map((e) => { const r = e.getBoundingClientRect();
                    return [e.dataset.key, r.left, r.top, r.right, r.bottom, r.width, r.height,
                            W, H]; });
                }""")
                assert len(m) >= 4, m
                for key, left, top, right, bottom, w, h, width, height in m:
                    assert w >= 43.5 and h >= 43.5, (which, key, w, h)
                    assert left >= -0.5 and right <= width + 0.5, (which, key)
                    assert top >= -0.5 and bottom <= height + 0.5, (which, key)
                assert page.evaluate("document.documentElement.scrollWidth") <= 320
            assert page.locator("#social-panel .emote").count() == 6
    finally:
        context.close()
