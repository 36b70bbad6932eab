"""The web client in a real Chromium on a phone-sized screen against a real daemon.

Every move is a click on what the page offers; the daemon (its own process) validates it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from engine import registry
from tests.clients.web.harness import (
    PHONE,
    Box,
    Proxy,
    decode_invite,
    join,
    my_seat,
    play_one_turn,
    play_to_end,
    running_box,
    wait_for_turn_or_end,
)

HOOKS = Path(__file__).resolve().parents[3] / "clients" / "web" / "games" / "hooks"


def drawn_by(game: str) -> str:
    """The family renderer the page must draw ``game`` with, from its descriptor alone
    (docs/web-client.md, "Family renderers"): a family it cannot draw falls back to generic."""
    p = registry.get(game).info.presentation
    zones = {z.name: z for z in p.zones}
    kinds = {g.kind: g for g in p.gestures}
    cell = kinds.get("cell")
    grid = zones.get(cell.zone) if cell is not None else None
    hook = HOOKS / f"{game}.js"
    named = hook.is_file() and "export function value(" in hook.read_text(encoding="utf-8")
    drawable = {
        "grid_board": cell is not None and grid is not None and grid.kind == "grid"
        and (len(cell.fields) == 2
             or (len(cell.fields) == 1 and (named or grid.labels == "algebraic"))),
        "trick_taking": any(z.kind == "trick" for z in p.zones) and "card" in kinds,
        "shedding": any(z.kind == "hand" for z in p.zones) and ("card" in kinds or "cards" in kinds),
    }
    return p.family if drawable.get(p.family) else "generic"


@pytest.mark.parametrize("game", registry.ids())  # every registered game, the moment it is
def test_join_by_code_and_play_a_whole_game(box: Box, phone: Any, game: str) -> None:
    page = phone.new_page()
    with box.held_table(game, seed=7) as table:
        join(page, box.url, table["code"])
    seat = my_seat(page)
    # Drawn by its family's renderer, chosen from the descriptor the host sent (or generic).
    expect(page.locator("#game")).to_have_class(re.compile(rf"\bfamily-{drawn_by(game)}\b"))
    assert wait_for_turn_or_end(page)
    # Screen readers hear whose turn it is.
    expect(page.locator("#live-assertive")).to_have_text("Your turn")
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
    assert_marks_drawn(page, box, table["id"])
    # A rematch with the same seats: the only person asks, so it starts at once.
    page.click("button[data-key=rematch]")
    expect(page.locator(".results")).to_have_count(0, timeout=10_000)
    assert my_seat(page) == seat


def assert_marks_drawn(page: Any, box: Box, table: str) -> None:
    """The board strikes through each completed line the common part names (first cell to
    last) and crosses out each square a piece was just taken from; nothing more."""
    from tests.clients.web.test_hooks_tricks import spectator

    with spectator(box.tcp_port, table) as state:
        marks = (state.get("common") or {}).get("marks") or {}
    lines = [x["cells"] for x in marks.get("lines") or []]
    drawn = page.locator(".board svg.strikes line").all()
    assert sorted((x.get_attribute("data-from"), x.get_attribute("data-to")) for x in drawn) == \
        sorted((",".join(map(str, c[0])), ",".join(map(str, c[-1]))) for c in lines)
    crossed = {(int(x.get_attribute("data-row")), int(x.get_attribute("data-col")))
               for x in page.locator(".board .sq.removed").all()}
    assert crossed == {(r, c) for r, c in marks.get("removed") or []}


# A message key shown as it came (``euchre.phase.bidding``) or a placeholder left unfilled.
RAW_KEY = re.compile(r"\b[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*\b|\{\w+\}")


@pytest.mark.parametrize("game", registry.ids())
def test_every_game_reads_in_french_and_arabic(box: Box, phone: Any, game: str) -> None:
    """Turns of every registered game in the other two languages, switched mid-game: the page
    speaks the language (right to left in Arabic), with no message key or placeholder left
    showing."""
    page = phone.new_page()
    with box.held_table(game, seed=11) as table:
        join(page, box.url, table["code"])
    for lang in ("fr", "ar"):
        page.click("#settings-open")
        page.select_option("#set-lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        page.click("button[data-key=settings-close]")
        assert page.evaluate("() => document.documentElement.dir") == (
            "rtl" if lang == "ar" else "ltr")
        for _ in range(2):
            text = page.inner_text(".table-screen")
            raw = RAW_KEY.search(text)
            assert raw is None, (game, lang, text[max(0, raw.start() - 300):raw.end() + 100])
            if not wait_for_turn_or_end(page, timeout=60):
                break
            play_one_turn(page, game)


def test_a_game_with_no_client_code_is_played_to_the_end(tmp_path: Path, phone: Any) -> None:
    """The toy game, registered with one line and no renderer, through the generic fallback."""
    with running_box(tmp_path / "box", toy=True) as toy_box:
        page = phone.new_page()
        with toy_box.held_table("toy", seed=3) as table:
            join(page, toy_box.url, table["code"])
        seat = my_seat(page)
        assert wait_for_turn_or_end(page)
        game = page.locator("#game .generic")
        expect(game).to_be_visible()
        assert "cannot show" not in page.inner_text("#game")
        # The view is readable: its fields by name, the own hand as cards, a button per move.
        assert "played" in game.locator(".generic-fields").first.inner_text().lower()
        # The common part: one score per side, each named by its seat, yours marked.
        sides = game.locator(".side-scores li")
        assert sides.count() == 2
        assert "Ana" in game.locator(".side-scores li.mine").inner_text()
        hand = game.locator(".hand button.card")
        assert hand.count() == 2
        buttons = game.locator(".actions button[data-action]")
        assert buttons.count() == 2
        offered = [json.loads(b) for b in buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")]
        # Exactly the two cards in hand, each offered once, as the host sent them.
        in_hand = sorted(c.get_attribute("data-key")[len("hand-"):] for c in hand.all())
        assert sorted(a["card"] for a in offered) == in_hand
        # Everything fits the phone's width: nothing scrolls sideways.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        moves = play_to_end(page, "toy")
        assert moves == 2  # two cards each, one per turn
        expect(page.locator(".results")).to_be_visible()
        # A player is told whether they won or lost, and their row says it is them.
        verdict = page.locator(".results .winners").inner_text()
        assert re.match(r"(You won|You lost|A draw)", verdict), verdict
        # "Game over" is said once on screen (the panel's heading); the status says who won.
        assert page.locator("main").inner_text().count("Game over") == 1
        assert page.inner_text("#status") == verdict
        assert page.locator(".results .scores .badge.you").count() == 1
        shown = toy_box.table(table["id"])
        assert shown["status"] == "finished"
        assert next(s for s in shown["seats"] if s["seat"] == seat)["controller"] == "human"


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


def test_settings_tapped_before_the_strings_arrive_still_open(box: Box, phone: Any) -> None:
    """On a slow link the button is on screen before the page's strings: a tap then opens
    the settings once they arrive, instead of doing nothing."""
    page = phone.new_page()
    held: list[Any] = []
    page.route("**/i18n/*.json", lambda route: held.append(route))
    page.goto(box.url)
    page.wait_for_function("() => document.readyState === 'complete'")
    page.click("#settings-open")
    assert held, "the catalogue fetch was not held back"
    while held:  # the English catalogue first, then whatever it asks for next
        held.pop(0).continue_()
        page.wait_for_timeout(50)
    page.unroute("**/i18n/*.json")
    expect(page.locator("#settings[open] #set-lang")).to_be_visible()


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
    order = page.locator(".pres-state .order")
    assert "10 V D R A 2" in order.get_attribute("data-order")
    # ...and the weakest rank (3) is read first: at the right end in Arabic.
    ranks = order.locator(".rk")
    assert ranks.first.inner_text() == "3"
    assert ranks.first.bounding_box()["x"] > ranks.last.bounding_box()["x"]
    # Server text (a message key) arrives translated.
    assert "المقعد" in page.inner_text(".seats") or "الحاسوب" in page.inner_text(".seats")
    # The choice sticks across a reload.
    page.reload()
    page.wait_for_selector(".table-screen")
    assert page.evaluate("() => document.documentElement.dir") == "rtl"


def test_invite_shows_a_qr_code_of_the_ip_literal_join_link(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("euchre") as table:
        join(page, box.url, table["code"])
        page.click("button[data-key=invite]")
        # what a phone camera reads from the served SVG
        assert decode_invite(page) == f"{box.url}/?code={table['code']}"
        page.click("button[data-key=invite-close]")
        expect(page.locator("dialog.invite")).to_have_count(0)


def test_the_turn_timer_counts_down_on_the_seat_to_play(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("president", turn_timer=40) as table:
        join(page, box.url, table["code"])
    assert wait_for_turn_or_end(page)
    timer = page.locator(".seat.mine .timer")

    def seconds() -> int:
        m = re.search(r"\d+", timer.inner_text())
        assert m, timer.inner_text()
        return int(m.group())

    first = seconds()
    assert 30 < first <= 40
    page.wait_for_timeout(2100)
    assert seconds() < first


def test_watching_a_table_shows_the_public_view(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("sequence", seed=2) as table:
        page.goto(box.url + "/")
        page.click(f"button[data-key='watch-{table['id']}']")
        page.wait_for_selector(".table-screen .board")
        assert page.inner_text("#status") == "You are watching."
        assert page.locator(".seat.mine").count() == 0
        assert page.locator(".hand .card").count() == 0  # no hand is anyone's to see
        version = page.get_attribute("#game", "data-version")
    # The holder left: the game moves on and the spectator sees it.
    page.wait_for_function("(v) => document.querySelector('#game').dataset.version !== v",
                           arg=version)


def test_a_dropped_player_is_shown_offline_then_covered_by_the_ai(browser: Browser,
                                                                   tmp_path: Path) -> None:
    with running_box(tmp_path / "box", grace=1.0) as quick:
        ana, ben = browser.new_context(**PHONE), browser.new_context(**PHONE)
        try:
            pa, pb = ana.new_page(), ben.new_page()
            with quick.held_table("euchre") as table:
                join(pa, quick.url, table["code"], "Ana")
                join(pb, quick.url, table["code"], "Ben")
            seat = pa.locator(f".seat[data-seat='{my_seat(pb)}']")
            expect(seat).to_contain_text("Ben")
            ben.close()
            expect(seat.locator(".badge.offline")).to_be_visible()
            expect(seat.locator(".badge.covered")).to_be_visible(timeout=10_000)
        finally:
            ana.close()


def test_a_table_whose_people_went_away_pauses_and_a_released_seat_says_why(
        browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana closes her page: a watcher is told the table waits for its people; once her seat went
    back to the computer (seat_release_after) the table plays on, and her page, opened again,
    says why she is in the lobby instead of at her seat."""
    config = tmp_path / "config.toml"
    config.write_text("seat_release_after = 3\n", encoding="utf-8")
    monkeypatch.setenv("TABLEBOX_CONFIG", str(config))
    with running_box(tmp_path / "box", grace=0.5) as quick:
        ana, kim = browser.new_context(**PHONE), browser.new_context(**PHONE)
        try:
            pa, pk = ana.new_page(), kim.new_page()
            with quick.held_table("golf") as table:
                join(pa, quick.url, table["code"], "Ana")
            pk.goto(quick.url + "/")
            pk.click(f"button[data-key='watch-{table['id']}']")
            pk.wait_for_selector(".table-screen")
            pa.goto("about:blank")  # the phone is closed without Leave
            expect(pk.locator("#status")).to_have_text(
                "Paused: everyone at this table is away. It goes on when one of them is back.")
            version = pk.get_attribute("#game", "data-version")
            pk.wait_for_timeout(1000)
            assert pk.get_attribute("#game", "data-version") == version  # nothing moves
            # her seat is the computer's now: the watched table plays on
            pk.wait_for_function("(v) => document.querySelector('#game').dataset.version !== v",
                                 arg=version, timeout=15_000)
            expect(pk.locator("#status")).not_to_contain_text("Paused")
            pa.goto(quick.url + "/")
            expect(pa.locator("#join-error")).to_have_text(
                "Your seat went back to the computer while you were away; join again to play.")
            assert pa.locator(".seat.mine").count() == 0
        finally:
            ana.close()
            kim.close()


def one_and_two_eyed_seed() -> int:
    """A seed whose deal gives seat 1 (the page's seat; the holder takes seat 0, which plays
    first) a one-eyed and a two-eyed jack."""
    from engine.match import Match

    game = registry.get("sequence")
    for seed in range(1000):
        m = Match.start(game, 2, {}, seed)
        hand = {c.card for c in m.view(1).hand}
        if hand & {"JH", "JS"} and hand & {"JD", "JC"} and m.to_act() == (0,):
            return seed
    raise AssertionError("no such deal in 1000 seeds")


def test_sequence_hint_and_targets_follow_the_jack(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("sequence", seed=one_and_two_eyed_seed()) as table:
        join(page, box.url, table["code"])
    assert my_seat(page) == 1
    assert wait_for_turn_or_end(page)  # seat 0 has placed a chip: there is one to remove
    hint = page.locator("#hint")
    expect(hint).to_have_text("Tap a card in your hand to see where it can go.")
    one_eyed = page.locator(".hand button.card", has_text="remove").first
    one_eyed.click()
    expect(hint).to_contain_text("One-eyed jack: tap an opponent's chip")
    targets = page.locator(".board button.sq.target")
    assert targets.count() >= 1
    for i in range(targets.count()):  # every target holds the other team's chip
        assert targets.nth(i).locator(".chip.team-0").count() == 1
    page.locator(".hand button.card", has_text="wild").first.click()
    expect(hint).to_contain_text("Two-eyed jack (wild): tap any empty square")
    assert targets.count() > 50
    assert page.locator(".board button.sq.target .chip").count() == 0  # only empty squares
    square = targets.first
    row, col = square.get_attribute("data-row"), square.get_attribute("data-col")
    square.click()  # the wild jack's chip goes on that empty square: ours (team 1) now
    page.wait_for_selector(f".board [data-row='{row}'][data-col='{col}'] .chip.team-1")


def test_the_grid_family_prints_the_board_and_each_teams_standing(box: Box, phone: Any) -> None:
    """Sequence's printed board (the descriptor's ``faces``), its marks and each team's standing
    (the common part's ``side_notes``) are drawn by the grid family, in the reader's language."""
    from tests.clients.web.test_hooks_tricks import view_now

    page = phone.new_page()
    with box.held_table("sequence", seed=one_and_two_eyed_seed()) as table:
        join(page, box.url, table["code"])
    assert wait_for_turn_or_end(page)  # seat 0 has placed a chip: the last move is ringed
    view = view_now(box, table["id"])
    for r, c in ((0, 0), (0, 1), (4, 5), (9, 9)):
        square = page.locator(f".board [data-row='{r}'][data-col='{c}']")
        code = view["layout"][r][c]
        if code == "XX":
            assert square.locator(".corner").inner_text() == "★"
            assert "free corner" in square.get_attribute("aria-label")
        else:
            rank = {"T": "10"}.get(code[0], code[0])
            assert square.locator(".face").inner_text() == rank + "♠♥♦♣"["SHDC".index(code[1])]
    (lr, lc), = view["last"]["squares"]
    last = page.locator(f".board [data-row='{lr}'][data-col='{lc}']")
    assert "last" in last.get_attribute("class") and "last move" in last.get_attribute("aria-label")
    teams = page.locator(".score-bar .team-score").all_inner_texts()
    assert [x.split(": ", 1)[1] for x in teams] == [f"{n} of 2 sequences" for n in view["score"]]
    expect(page.locator(".score-bar")).to_contain_text(f"Draw pile: {view['draw_pile']}")
    # the same, said right to left in Arabic
    page.click("#settings-open")
    page.select_option("#set-lang", "ar")
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    page.click("button[data-key=settings-close]")
    expect(page.locator(".score-bar .team-score").first).to_contain_text(
        f"السلاسل {view['score'][0]} من 2")


def test_keyboard_alone_plays_a_move(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("president", seed=4) as table:
        join(page, box.url, table["code"])
    assert wait_for_turn_or_end(page)
    version = page.get_attribute("#game", "data-version")
    usable = ".hand button.card:not([disabled])"
    for _ in range(80):  # Tab through the page to the first card that can be chosen
        page.keyboard.press("Tab")
        if page.evaluate(f"() => document.activeElement.matches('{usable}')"):
            break
    else:
        raise AssertionError("no card reachable with Tab")
    key = page.evaluate("() => document.activeElement.dataset.key")
    page.keyboard.press("Space")
    # Selecting re-renders the hand; focus stays on the same card.
    assert page.evaluate("() => document.activeElement.dataset.key") == key
    assert page.get_attribute(f"[data-key='{key}']", "aria-pressed") == "true"
    for _ in range(40):
        page.keyboard.press("Shift+Tab")  # the Play button comes before the hand
        if page.evaluate("() => document.activeElement.dataset.key === 'play'"):
            break
    if page.is_enabled("button[data-key=play]"):
        page.keyboard.press("Enter")
    else:  # that card alone does not beat the pile: pass instead
        page.focus("button[data-key=pass]")
        page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.querySelector('#game').dataset.version !== v",
                           arg=version)


def test_settings_change_the_deck_and_the_buttons_are_large(box: Box, phone: Any) -> None:
    page = phone.new_page()
    with box.held_table("euchre", seed=6) as table:
        join(page, box.url, table["code"])
    # Touch targets: 44 px, cards 40 px. Measured in one snapshot of the page: a state that
    # arrives meanwhile re-renders the buttons, and a handle to an old one has no box.
    small = page.evaluate("""() => [...document.querySelectorAll('button')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => [b.textContent.trim(), b.classList.contains('card') ? 40 : 44,
                     Math.min(b.getBoundingClientRect().width, b.getBoundingClientRect().height)])
        .filter(([, least, size]) => size < least - 0.5)""")
    assert small == []
    card_width = "() => document.querySelector('.hand .card').getBoundingClientRect().width"
    width = page.evaluate(card_width)  # read in the page: a re-render detaches old handles
    page.click("#settings-open")
    page.check("[data-key=set-fourColour]")
    page.check("[data-key=set-largeCards]")
    page.click("button[data-key=settings-close]")
    diamond = page.evaluate("""() => { const e = document.createElement('span');
        e.className = 'suit-D'; document.body.append(e); return getComputedStyle(e).color; }""")
    assert diamond == "rgb(31, 95, 191)"  # blue, not red, with four colours
    assert page.evaluate(card_width) > width


def test_president_exchange_between_rounds(box: Box, phone: Any) -> None:
    """From the second round the titles exchange cards: the shedding family shows what this
    seat received and gave (President's hook), and a give-back is chosen with the same
    multi-select and confirmed with Give, until the game ends."""
    page = phone.new_page()
    with box.held_table("president", "rounds=2", seed=5) as table:
        join(page, box.url, table["code"])
    notes: set[str] = set()
    for _ in range(400):
        if not wait_for_turn_or_end(page):
            break
        if "Round 2" in page.inner_text(".pres-state"):
            notes |= {t for t in page.locator(".shedding > .banner").all_inner_texts()
                      if "You received" in t or "You gave" in t}
        if page.locator("#hint").inner_text().startswith("Choose"):  # a give-back: Give confirms
            expect(page.locator("button[data-key=play]")).to_have_text("Give")
        play_one_turn(page, "president")
    else:
        raise AssertionError("no end after 400 moves")
    # Four seats: no citizen, so every seat exchanges, this one too.
    assert notes, "the exchange was never shown"
    expect(page.locator(".results")).to_be_visible()
    # Titles of the last round are in the results table.
    assert page.locator(".results .scores td").count() >= 8


def test_euchre_bowers_and_the_alone_switch(box: Box, phone: Any) -> None:
    """The trick_taking family with Euchre's hook: the bowers are captioned once trump is named
    (the view's captions), and "alone" is a switch that only picks between legal variants."""
    page = phone.new_page()
    with box.held_table("euchre", seed=3) as table:
        join(page, box.url, table["code"])
    bowers: set[str] = set()
    switched = False
    for _ in range(400):
        if not wait_for_turn_or_end(page):
            break
        bowers |= {c for c in page.locator(".hand .card .caption").all_inner_texts() if "bower" in c}
        toggle = page.locator("#game input[data-key=alone]")
        if toggle.count() and not switched:
            order = page.locator("#game .actions button[data-action*=order_up]")
            assert order.count() == 1 and not order.inner_text().endswith("alone")
            toggle.check()
            assert order.count() == 1 and order.inner_text().endswith("alone")
            assert json.loads(order.get_attribute("data-action"))["alone"] is True
            toggle.uncheck()
            switched = True
        play_one_turn(page, "euchre")
    else:
        raise AssertionError("no end after 400 moves")
    assert bowers, "no bower was ever captioned"
    assert switched, "the alone switch never showed"


def test_a_chess_clock_shows_both_sides_time(box: Box, phone: Any) -> None:
    """A timed chess game: both clocks under the board (as of each side's last move, in the
    view), and the side to move counting down on its seat."""
    page = phone.new_page()
    with box.held_table("chess", "clock=5+0", seed=3) as table:
        join(page, box.url, table["code"])
    assert wait_for_turn_or_end(page)
    clocks = page.locator(".grid-board .clocks")
    expect(clocks).to_contain_text("5:00")
    text = clocks.inner_text()
    assert text.count(":") == 2 and "♔" in text and "♚" in text, text
    expect(page.locator(".seat.mine [data-timer]")).to_be_visible()
