"""The café floor, for every registered game: issue 22's whole flow in a real Chromium.

A phone opens a table of the game through the "Open a table" sheet, choosing the game's
shortest options with the sheet's own controls; a second phone joins by the link its camera
reads from the invite's QR code; a kiosk (the kiosk's own link and screen, headless) watches
the table. The two phones play by tapping what their pages offer until the results (the other
seats, if any, are computer players), each reads the game's log and its score sheet, the first
sends an emote that the second phone and the kiosk both show beside its seat, and both ask for
a rematch, which starts. Every byte the kiosk received is checked against the true game: it
only ever held the public view.

Chess has no option that shortens a game, and random play from two phones takes over a
minute (75 s here): in ``make test`` six moves are played and the side to move resigns from
its page (a real end, with results, scores and a rematch offer); the whole random game is the
slow test. Every other game plays to its end in ``make test``.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from playwright.sync_api import Browser, Page, expect

from engine import registry
from hostd.protocol.messages import History
from tests.clients.kiosk.watching import Kiosk, watching
from tests.clients.web.harness import (
    BIN,
    PHONE,
    Box,
    decode_invite,
    game_over,
    my_seat,
    play_one_turn,
)
from tests.clients.web.test_open_tables import box_with, newest, open_sheet
from tests.clients.web.test_social import open_panel
from tests.hostd.test_history import agrees_with_final, check_history
from tests.hostd.test_leaks import check_bytes, true_states


class Setup:
    """How a game is opened for the floor test: seats, the options that end it soonest, the
    action types its driver takes first, and, where no option makes a whole game short, how
    many moves ``make test`` plays before the side to move resigns (the whole game is then
    the slow test)."""

    def __init__(self, players: int, options: dict[str, str | bool], *,
                 prefer: tuple[str, ...] = (), resign: int | None = None) -> None:
        self.players = players
        self.options = options
        self.prefer = prefer
        self.resign = resign


# The shortest game each offers, for two people (the rest of the seats computer players).
FLOOR: dict[str, Setup] = {
    "sequence": Setup(2, {"sequences_to_win": "1"}),
    "euchre": Setup(4, {"target": "10"}),
    "president": Setup(3, {"rounds": "1"}),
    # No option shortens it: a landing square before another pick-up halves the page moves
    # (random play picks a piece up again as often as it moves one).
    "checkers": Setup(2, {"draw_rules": "automatic"}, prefer=("move_to",)),
    "mastermind": Setup(2, {"mode": "duel", "games": "1", "rows": "6", "holes": "3"},
                        prefer=("submit",)),
    "golf": Setup(2, {"holes": "1", "layout": "4"}),
    "kaiser": Setup(4, {"target": "52"}),
    "wizard": Setup(3, {"rounds": "5"}),
    "backgammon": Setup(2, {"mode": "money", "games": "1"}),
    # A player who can play must (no drawing instead), and the first hand won ends the game.
    "crazy_eights": Setup(2, {"target": "1", "draw_when_able": False}),
    # Random chess from two phones is some 640 page moves even with draws claimed at once.
    "chess": Setup(2, {"draw_rules": "auto_claim"}, prefer=("promote", "move_to"), resign=6),
}
SLOW = [g for g, s in FLOOR.items() if s.resign is not None]


def test_every_game_has_a_floor_setup() -> None:
    assert set(FLOOR) == set(registry.ids())
    for game, setup in FLOOR.items():
        info = registry.get(game).info
        assert setup.players in info.players, game
        names = {o.name for o in info.options}
        assert setup.options and set(setup.options) <= names, game
        registry.get(game).validate(setup.players, {k: (v if isinstance(v, bool) else _typed(
            game, k, v)) for k, v in setup.options.items()})


def _typed(game: str, name: str, value: str) -> Any:
    o = next(o for o in registry.get(game).info.options if o.name == name)
    return int(value) if o.kind == "int" else value


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    with box_with(tmp_path_factory.mktemp("floor"), "max_tables = 100\n") as b:
        yield b


def my_turn(page: Page) -> bool:
    return bool(page.evaluate("() => !!(document.querySelector('#status.mine') && "
                              "!document.querySelector('.game.busy'))"))


def resign(page: Page) -> None:
    """The side to move gives up through its page's own Resign control."""
    button = page.locator('#game [data-action*=\'"type": "resign"\'], '
                          '#game [data-action*=\'"type":"resign"\']')
    expect(button.first).to_be_enabled()
    button.first.click()


def play_both(pages: list[Page], game: str, *, prefer: tuple[str, ...] = (),
              resign_after: int | None = None, max_moves: int = 3000) -> int:
    """Each phone moves through its own controls when its turn comes, until both show the
    results (or, after ``resign_after`` moves, the side to move resigns); moves made."""
    moves = 0
    while not all(game_over(p) for p in pages):
        moved = False
        for p in pages:
            if not game_over(p) and my_turn(p):
                if resign_after is not None and moves >= resign_after:
                    resign(p)
                    expect(p.locator(".results")).to_have_count(1, timeout=10_000)
                else:
                    play_one_turn(p, game, prefer)
                moves += 1
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)
        assert moves < max_moves, f"{game}: no end after {max_moves} moves"
    return moves


def set_options(page: Page, options: dict[str, str | bool]) -> None:
    for name, value in options.items():
        control = page.locator(f"dialog.opener [data-option={name}]")
        if isinstance(value, bool):
            control.set_checked(value)
        elif control.evaluate("(e) => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)


def export(box: Box, table: str, number: int) -> dict[str, Any]:
    out = subprocess.run([str(BIN / "tablebox"), "export", table, "--game", str(number),
                          "--control", str(box.control)],
                         capture_output=True, text=True, check=True, timeout=30)
    record: dict[str, Any] = json.loads(out.stdout)
    return record


def tokens(page: Page, table: str) -> str:
    return str(page.evaluate("(t) => JSON.parse(localStorage.getItem('tablebox.seats'))[t].token",
                             table))


# The marks the kiosk's text layer puts round a name so it reads whole in either direction.
BIDI_MARKS = "\u200e\u200f\u2066\u2067\u2068\u2069"


def kiosk_shows_reaction(kiosk: Kiosk, name: str, emote: str) -> bool:
    """The reaction's words are on the kiosk's screen, on the row of the seat named ``name``."""
    label = kiosk.reaction_label(emote)
    shown = [r for text, r in kiosk.drawn if text == label
             or (text.endswith("…") and label.startswith(text[:-1]))]
    names = [r for text, r in kiosk.drawn if text.strip(BIDI_MARKS) == name]
    return any(n.top < r.centery < n.bottom for r in shown for n in names)


def kiosk_saw_only_the_public_view(game: str, players: int, record: dict[str, Any], raw: bytes,
                                   final: History, seat_tokens: set[str]) -> None:
    """Every frame the kiosk received, against the true states replayed from ``record``.

    The daemon-wide leak check (tests/hostd/test_leaks.py) holds every frame to the view at
    the version of the state last sent; a log names cards of tricks and hands gone by, so the
    log answers are held to their own entries' versions instead (tests/hostd/test_history.py,
    as its leak test does): the ``final`` account entry by entry, and every answer the kiosk
    was sent as the game went says the same as the final one where they overlap."""
    g = registry.get(game)
    states = true_states(record)
    frames = raw.split(b"\n")
    logs = [msgspec.json.decode(f, type=History) for f in frames if b'"type":"history"' in f]
    rest = b"\n".join(f for f in frames if b'"type":"history"' not in f)
    checked = check_bytes(g, players, states, None, rest, record["seed"], None, seat_tokens)
    assert checked > 1, "the kiosk saw the game"
    assert check_history(g, states, None, final) > 0
    assert logs, "the kiosk asked for the table's log"
    for h in logs:
        agrees_with_final(h, final)


def floor_flow(box: Box, browser: Browser, game: str, *, whole: bool = False) -> None:
    """Issue 22's flow for ``game``; ``whole``: to the end, whatever its Setup says."""
    setup = FLOOR[game]
    phones = [browser.new_context(**PHONE, locale="en-GB") for _ in range(2)]
    errors: list[str] = []
    for c in phones:
        c.on("weberror", lambda e: errors.append(str(e.error)))
    try:
        a, b = (c.new_page() for c in phones)
        open_sheet(a, box.url, "Ana")
        a.select_option("#open-game", game)
        if a.locator("#open-players").count():
            a.select_option("#open-players", str(setup.players))
        set_options(a, setup.options)
        a.click("button[data-key=open-submit]")
        a.wait_for_selector(".table-screen .seat.mine", timeout=10_000)
        link = decode_invite(a)
        table = newest(box)
        assert link == f"{box.url}/?code={table['code']}"
        with watching(box.tcp_port, table["id"]) as kiosk:
            a.click("button[data-key=invite-close]")
            # The second phone follows the link the camera read.
            b.goto(link)
            b.fill("#join-name", "Ben")
            b.click("button[type=submit]")
            b.wait_for_selector(".table-screen .seat.mine", timeout=10_000)
            shown = box.table(table["id"])
            assert shown["game"] == game and len(shown["seats"]) == setup.players
            people = {s["seat"]: s["name"] for s in shown["seats"] if s["controller"] == "human"}
            assert people == {my_seat(a): "Ana", my_seat(b): "Ben"}
            for name, value in setup.options.items():
                assert str(shown["options"][name]).lower() == str(value).lower(), (name, shown)
            kiosk.wait(lambda: (e := kiosk.model.tables.get(table["id"])) is not None
                       and e.state is not None, what="the table")

            play_both([a, b], game, prefer=setup.prefer,
                      resign_after=None if whole else setup.resign)
            assert box.table(table["id"])["status"] == "finished"
            # Each reads the game's log and its score sheet.
            for p in (a, b):
                open_panel(p, "log")
                assert p.locator("#log-list li").count() > 0
                open_panel(p, "scores")
                p.wait_for_selector("#social-panel .sheet-table tbody tr")
            # Ana's emote: beside her seat on Ben's phone and on the kiosk's screen.
            open_panel(a, "react")
            a.click("[data-key=emote-clap]")
            b.wait_for_selector(f'.seat[data-seat="{my_seat(a)}"] .reaction[data-emote=clap]',
                                timeout=5000)
            kiosk.wait(lambda: kiosk_shows_reaction(kiosk, "Ana", "clap"),
                       what="Ana's emote beside her seat")
            # The kiosk followed the game to its end as a spectator, and every byte it was
            # sent is what the public view at that moment allowed.
            entry = kiosk.look(lambda: kiosk.model.tables[table["id"]])
            assert entry.state is not None and entry.state.status == "finished"
            assert entry.state.seat is None and entry.state.legal == []
            raw = kiosk.raw()
            final = kiosk.history(table["id"])
        seat_tokens = {tokens(a, table["id"]), tokens(b, table["id"])}
        kiosk_saw_only_the_public_view(game, setup.players, export(box, table["id"], 1), raw,
                                       final, seat_tokens)

        for p in (a, b):  # the panels fold away again, off the results
            for which in ("log", "scores", "react"):
                toggle = p.locator(f"[data-key=social-{which}]")
                if toggle.count() and toggle.get_attribute("aria-expanded") == "true":
                    toggle.click()
        # A rematch starts when both have asked.
        a.click("button[data-key=rematch]")
        expect(a.locator("button[data-key=rematch]")).to_be_disabled()
        b.click("button[data-key=rematch]")
        for p in (a, b):
            expect(p.locator(".results")).to_have_count(0, timeout=10_000)
        assert box.table(table["id"])["game_number"] == 2
    finally:
        for c in phones:
            c.close()
        # The table goes, so its rematch does not play on by itself beside the next game's.
        if "table" in locals():
            subprocess.run([str(BIN / "tablebox"), "tables", "close", table["id"],
                            "--control", str(box.control)], capture_output=True, check=True,
                           timeout=30)
    assert not errors, errors


@pytest.mark.parametrize("game", list(FLOOR))
def test_open_join_by_qr_play_read_react_on_the_kiosk_and_rematch(
        floor: Box, browser: Browser, game: str) -> None:
    floor_flow(floor, browser, game)


@pytest.mark.slow
@pytest.mark.parametrize("game", SLOW)
def test_the_whole_game_from_two_phones(floor: Box, browser: Browser, game: str) -> None:
    floor_flow(floor, browser, game, whole=True)
