"""Kaiser's and Wizard's hooks on the trick-taking family, in Chromium at 390x844 against a real
daemon: what each seat bid and took, the turned card, the score sheet (Wizard's, drawn by the
shared Scores panel from the common part), the bid buttons.

What the page shows is compared with what a spectator of the same table is sent over TCP at
the same moment (the table waits for the page's player, so nothing moves in between): the
page must show the view's bids, tricks and sheet exactly, and a hidden bid never.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
from collections.abc import Iterator
from typing import Any

from tests.clients.web.harness import Box, join, my_seat, play_one_turn, wait_for_turn_or_end


@contextlib.contextmanager
def spectator(port: int, table: str) -> Iterator[dict[str, Any]]:
    """The spectator's state of ``table`` right now, as the host sends it."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    f = sock.makefile("rwb")
    try:
        for msg in ({"type": "hello", "id": 1, "client": "test-spectator"},
                    {"type": "spectate", "id": 2, "table": table}):
            f.write(json.dumps(msg).encode() + b"\n")
        f.flush()
        while True:
            msg = json.loads(f.readline())
            assert msg["type"] != "rejected", msg
            if msg["type"] == "state" and msg["table"] == table:
                yield msg
                return
    finally:
        f.close()
        sock.close()


def view_now(box: Box, table: str) -> dict[str, Any]:
    with spectator(box.tcp_port, table) as state:
        return dict(state["view"])


def note(page: Any, seat: int) -> str | None:
    loc = page.locator(f"#game .spot[data-seat='{seat}'] .note")
    return loc.inner_text() if loc.count() else None


def offered(page: Any) -> list[dict[str, Any]]:
    return [json.loads(a) for a in page.locator("#game .actions [data-action]").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.action)")]


def click_and_wait(page: Any, control: Any) -> None:
    """Tap a control that sends an action, and wait for the host's next state."""
    version = page.evaluate("() => document.querySelector('#game').dataset.version")
    control.click()
    page.wait_for_function("(v) => document.querySelector('#game').dataset.version !== v",
                           arg=version)


def seated(box: Box, phone: Any, game: str, *opts: str, seed: int) -> tuple[Any, dict[str, Any]]:
    """A phone seated at a new table of ``game`` (the page, the table)."""
    page = phone.new_page()
    with box.held_table(game, *opts, seed=seed) as table:
        join(page, box.url, table["code"])
    return page, table


def turn_where(page: Any, ready: str, moves: int = 60) -> None:
    """Play on through the page until it is this seat's turn and ``ready`` (a selector) shows."""
    for _ in range(moves):
        assert wait_for_turn_or_end(page), "the game ended first"
        if page.locator(ready).count():
            return
        play_one_turn(page, "")
    raise AssertionError(f"never reached a turn with {ready}")


def test_wizard_shows_the_bids_the_tricks_the_turned_card_and_the_sheet(box: Box,
                                                                       phone: Any) -> None:
    page, table = seated(box, phone, "wizard", seed=4)
    bid = "#game .actions [data-action*='\"bid\"']"
    # a later round's bidding: the sheet has a line, and every bid is to be chosen
    for _ in range(60):
        assert wait_for_turn_or_end(page), "the game ended first"
        if page.locator(bid).count() and view_now(box, table["id"])["sheet"]:
            break
        play_one_turn(page, "")
    view = view_now(box, table["id"])
    me = my_seat(page)
    assert view["phase"] == "bidding" and view["sheet"]
    for s in range(view["players"]):
        want = (f"bid {view['bids'][s]} · took {view['taken'][s]}" if view["bids_in"][s]
                else None)
        assert note(page, s) == want, (s, view["bids"], view["taken"])
    # the bid buttons are the round's numbers, each sending the host's action
    acts = offered(page)
    assert {a["type"] for a in acts} == {"bid"}
    labels = page.locator("#game .actions button[data-action]").all_inner_texts()
    assert labels == [str(a["tricks"]) for a in acts]
    assert all(0 <= a["tricks"] <= view["round"] for a in acts)
    # the turned card in the middle, named aloud
    if view["turned"]:
        assert page.locator("#game .middle .card").get_attribute("aria-label").startswith(
            "Turned card: ")
    # one sheet: the table draws none of its own; the Scores panel, folded until asked, opens
    # to one row per round, the latest first, and the totals
    assert page.locator("#game table, #game details").count() == 0
    assert page.locator("#social-panel").count() == 0
    page.click("[data-key=social-scores]")
    sheet = page.locator("#social-panel[data-panel=scores] .sheet-table")
    rows = sheet.locator("tbody tr")
    assert rows.count() == len(view["sheet"])
    heads = sheet.locator("thead th").all_inner_texts()
    assert len(heads) == view["players"] + 1 and heads[1 + me] == "Ana"  # a column per seat
    for i, r in enumerate(reversed(view["sheet"])):
        cells = rows.nth(i).locator("th, td").all_inner_texts()
        assert cells[0] == str(r["round"])
        assert cells[1:] == [
            f"{r['bids'][s]}/{r['taken'][s]} {'+' if r['points'][s] > 0 else ''}"
            f"{r['points'][s]} {r['totals'][s]}" for s in range(view["players"])]
    assert sheet.locator("tfoot td").all_inner_texts() == [
        str(x) for x in view["sheet"][-1]["totals"]]
    # the sheet fits the phone: nothing scrolls sideways
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # a bid sent from a number button (the panel lies over them: by the keyboard) is the
    # seat's bid in the next view
    version = page.evaluate("() => document.querySelector('#game').dataset.version")
    page.locator("#game .actions button[data-action]").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.querySelector('#game').dataset.version !== v",
                           arg=version)
    after = view_now(box, table["id"])
    assert after["round"] == view["round"] and after["bids"][me] == acts[0]["tricks"]
    # the sheet stays open across the states that follow
    assert sheet.locator("tbody tr").count() == len(view["sheet"])


def test_wizard_hidden_bids_show_only_that_a_seat_has_bid(box: Box, phone: Any) -> None:
    page, table = seated(box, phone, "wizard", "hidden_bids=true", seed=9)
    turn_where(page, "#game .actions [data-action*='\"bid\"']")
    view = view_now(box, table["id"])
    me = my_seat(page)
    assert view["phase"] == "bidding"
    others = [s for s in range(view["players"]) if s != me and view["bids_in"][s]]
    for s in range(view["players"]):
        assert note(page, s) == ("has bid" if s in others else None), s
    assert not re.search(r"bid \d", page.locator("#game").inner_text())


def test_kaiser_shows_the_calls_and_folds_no_trump_bids_into_a_switch(box: Box,
                                                                     phone: Any) -> None:
    page, table = seated(box, phone, "kaiser", seed=7)
    turn_where(page, "#game .actions input[data-key=no_trump]")
    view = view_now(box, table["id"])
    me = my_seat(page)
    assert view["phase"] == "bidding"
    for b in view["bids"]:
        want = ("Pass" if b["value"] is None
                else f"{b['value']} NT" if b["no_trump"] else str(b["value"]))
        assert note(page, b["seat"]) == want
    plain = offered(page)
    assert {a["type"] for a in plain} == {"bid", "pass"}
    page.locator("#game .actions input[data-key=no_trump]").check()
    nt = offered(page)
    assert {a["type"] for a in nt} == {"bid_no_trump", "pass"}
    # the switch only picks between the host's variants: a no-trump bid outranks the same
    # number, so each plain bid offered has its no-trump twin, and nothing below the high bid
    high = max((b["value"] for b in view["bids"] if b["value"] is not None), default=0)
    values = {a["value"] for a in plain if "value" in a}
    nt_values = {a["value"] for a in nt if "value" in a}
    assert values <= nt_values and min(nt_values) >= high and max(nt_values) <= 12
    button = page.locator("#game .actions button[data-action*='bid_no_trump']").first
    assert re.fullmatch(r"\d+ NT", button.inner_text())
    sent = json.loads(button.get_attribute("data-action"))
    click_and_wait(page, button)
    # the hand goes on without this seat's cards only once it plays: the call is in its auction
    after = view_now(box, table["id"])
    assert after["hand_number"] == view["hand_number"]
    assert [b for b in after["bids"] if b["seat"] == me] == [
        {"type": "bid_call", "seat": me, "value": sent["value"], "no_trump": True}]
