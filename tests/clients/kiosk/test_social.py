"""The kiosk's log, score sheet and reactions, from a real daemon's messages, drawn headless.

A Golf table plays a hole through the daemon; the kiosk's model is fed exactly what a
spectator connection receives (its states, its ``history`` answer, a ``notice.reaction``), and
the frame is drawn in every language at two sizes: the recent moves and the score sheet are
in their boxes under the game, and the reaction's label beside its seat in the seat list.
"""

from __future__ import annotations

import contextlib
import os
import random

import pygame
import pytest

from clients.client import Client, connect
from clients.kiosk import social
from clients.kiosk.draw import Ctx
from clients.kiosk.i18n import LANGUAGES
from clients.kiosk.layout import tile_layout
from clients.kiosk.model import REACTION_SHOWN, Model
from clients.kiosk.render import Screen
from hostd.protocol.messages import Text
from tests.hostd.helpers import running_daemon
from tests.hostd.test_daemon import ask
from tests.hostd.test_history import play_until

SIZES = [(1280, 720), (1920, 1080)]


async def test_the_kiosk_shows_the_log_the_sheet_and_a_reaction(
        screens: dict[str, Screen]) -> None:
    async with running_daemon() as d, contextlib.AsyncExitStack() as stack:
        t = await ask(d.control, "tables.new", game="golf", players=3, ai="random",
                      options={"holes": 3, "layout": "4"}, name="Café")
        ana: Client = await stack.enter_async_context(connect(port=d.tcp_port))
        await ana.join(t["code"], "Ana", 0)
        kiosk: Client = await stack.enter_async_context(connect(port=d.tcp_port))
        await kiosk.spectate(t["id"])
        model = Model("127.0.0.1")
        assert kiosk.welcome is not None
        model.link_up(kiosk.welcome, 0.0)
        model.on_tables(await kiosk.list_tables(), 0.0)
        model.on_state(kiosk.states[t["id"]], 0.0)
        assert model.history_wanted == {t["id"]}  # a new table: ask for its log
        await play_until({0: ana}, t["id"], random.Random(3), lambda s: s.view["hole"] >= 2)
        state = await kiosk.wait_state(t["id"], lambda s: s.view["hole"] >= 2)
        model.on_state(state, 1.0)
        model.on_history(await kiosk.history(t["id"]))
        entry = model.tables[t["id"]]
        assert entry.log and len(entry.rows) == 1 and entry.teams == [0, 1, 2]
        # More moves: the kiosk shows the newest caption at once, and asks for the rest.
        model.history_wanted.clear()
        await play_until({0: ana}, t["id"], random.Random(4),
                         lambda s: s.version >= state.version + 3
                         and s.common is not None and s.common["last"] is not None)
        newer = await kiosk.wait_state(t["id"], lambda s: s.version >= ana.states[t["id"]].version)
        model.on_state(newer, 2.0)
        assert newer.common is not None
        last = newer.common["last"]
        assert entry.log[-1].text == Text(last["key"], dict(last["args"]))
        assert model.history_wanted == {t["id"]}
        told = await kiosk.history(t["id"])
        model.on_history(told)
        assert entry.log == told.entries and entry.log_version == told.version
        await ana.react(t["id"], "wow")
        await kiosk.ping()
        notice = next(n for n in kiosk.notices if n.text.key == "notice.reaction")
        model.on_reaction(notice.table or "", notice.text.args["seat"], notice.text.args["emote"],
                          2.0)

    pygame.display.init()
    for lang in LANGUAGES:
        screen = screens[lang]
        for size in SIZES:
            surface = pygame.Surface(size)
            screen.frame(surface, model, now=3.0)
            if os.environ.get("KIOSK_PNG_DIR"):  # to look at, as tests/clients/kiosk/test_render
                pygame.image.save(surface, os.path.join(
                    os.environ["KIOSK_PNG_DIR"], f"kiosk-social-{lang}-{size[0]}x{size[1]}.png"))
            lay = tile_layout(surface.get_rect(), screen.tr.rtl)
            game, band = social.band(lay.game, lay.pad)
            assert band is not None, f"no room for the log at {size}"
            log_box, sheet_box = social.boxes(band, lay.pad, screen.tr.rtl)
            drawn = [(item.text, item.rect) for item in screen.text.drawn]
            ctx = Ctx(surface, screen.text, screen.tr, 3.0)
            newest = social.line(ctx, entry, entry.log[-1].text)
            assert newest.strip() and "{" not in newest
            for words, box in [(screen.tr.t("kiosk.log"), log_box),
                               (screen.tr.t("kiosk.scores"), sheet_box),
                               (newest, log_box),
                               (str(entry.rows[0].scores[0]), sheet_box)]:
                hits = [r for text, r in drawn if text == words
                        or (text.endswith("…") and words.startswith(text[:-1]))]
                assert hits, f"{words!r} not drawn ({lang} {size})"
                assert any(box.contains(r) for r in hits), f"{words!r} outside its box"
            for item in screen.text.drawn:
                if band.colliderect(item.rect):
                    assert log_box.contains(item.rect) or sheet_box.contains(item.rect), item
                assert not game.colliderect(item.rect) or not band.colliderect(item.rect)
            label = social.reaction_label(ctx, "wow")
            hits = [item.rect for item in screen.text.drawn
                    if item.text == label or (item.text.endswith("…")
                                              and label.startswith(item.text[:-1]))]
            assert hits and all(lay.seats.contains(r) for r in hits), (lang, size)
        # The reaction is gone once its few seconds are over.
        screen.frame(pygame.Surface(SIZES[0]), model, now=2.0 + REACTION_SHOWN + 0.1)
        assert not any(item.text == social.reaction_label(
            Ctx(surface, screen.text, screen.tr, 0), "wow") for item in screen.text.drawn)


@pytest.mark.parametrize("size", [(800, 480)])
def test_a_small_screen_keeps_the_game_whole(size: tuple[int, int]) -> None:
    lay = tile_layout(pygame.Rect((0, 0), size))
    game, band = social.band(lay.game, lay.pad)
    assert band is None and game == lay.game
