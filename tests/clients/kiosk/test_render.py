"""Every game's public views, from real AI games, drawn at three sizes in every language.

Each frame is saved as PNG and read back; the checks are on that image: no exception, the QR
code decodes to the table's IP-literal join link, every text drawn lies inside the screen,
and the words that matter (the join code, the table's name) were drawn.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pygame
import pytest
import zxingcpp

from bench.samples import GAMES, JOIN_URL, WELCOME, Sample, play_samples
from clients.kiosk.i18n import LANGUAGES
from clients.kiosk.layout import capacity, tile_layout
from clients.kiosk.model import Model
from clients.kiosk.render import Screen
from engine import registry
from hostd.protocol.messages import State
from tests.clients.kiosk.screenshots import model_for

SIZES = [(800, 480), (1280, 720), (1920, 1080)]


@pytest.fixture
def png_dir(tmp_path: Path) -> Path:
    """Where frames are written: a temporary directory, or $KIOSK_PNG_DIR to look at them."""
    chosen = os.environ.get("KIOSK_PNG_DIR")
    if not chosen:
        return tmp_path
    path = Path(chosen)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def samples() -> dict[str, list[Sample]]:
    return {game: play_samples(game) for game in GAMES}


def decode_qr(path: Path) -> list[str]:
    img = pygame.image.load(str(path))
    w, h = img.get_size()
    pixels = pygame.image.tobytes(img, "RGB")  # the view borrows these bytes: keep them alive
    view = zxingcpp.ImageView(pixels, w, h, zxingcpp.ImageFormat.RGB)
    return [r.text for r in zxingcpp.read_barcodes(view)]


def check_frame(screen: Screen, surface: pygame.Surface) -> None:
    bounds = surface.get_rect()
    assert screen.text.drawn, "nothing was written"
    for item in screen.text.drawn:
        assert bounds.contains(item.rect), f"{item.text!r} at {item.rect} leaves {bounds}"


def check_panels(screen: Screen, surface: pygame.Surface, label: str) -> None:
    """Every text inside the screen, and inside its own part of the one tile: no label spills
    into a neighbour's."""
    check_frame(screen, surface)
    lay = tile_layout(surface.get_rect(), screen.tr.rtl)
    for item in screen.text.drawn:
        assert any(part.contains(item.rect) for part in (lay.header, lay.side, lay.game)), (
            f"{item.text!r} at {item.rect} is in no panel ({label})")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_game_views(game: str, lang: str, size: tuple[int, int], samples: dict[str, list[Sample]],
                    screens: dict[str, Screen], png_dir: Path) -> None:
    screen = screens[lang]
    for sample in samples[game]:
        model = model_for(sample)
        surface = pygame.Surface(size)
        shown = screen.frame(surface, model, now=3.0)
        assert [e.id for e in shown] == [sample.state.table]
        check_panels(screen, surface, sample.label)
        texts = " ".join(item.text for item in screen.text.drawn)
        assert sample.state.code in texts
        assert sample.state.name in texts
        path = png_dir / f"kiosk-{game}-{sample.label}-{lang}-{size[0]}x{size[1]}.png"
        pygame.image.save(surface, str(path))
        assert decode_qr(path) == [f"{JOIN_URL}/?code={sample.state.code}"], sample.label


@pytest.mark.parametrize("size", [(1920, 1080), (3840, 2160), (1080, 1920)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_several_tables_split_the_screen(size: tuple[int, int], samples: dict[str, list[Sample]],
                                         screens: dict[str, Screen], png_dir: Path) -> None:
    picks = []
    for i, game in enumerate(list(GAMES)[:capacity(size)]):  # as many as the screen holds
        s = samples[game][1]
        picks.append(Sample(game, s.label, _retable(s, f"t{i}", f"CODE{i}")))
    model = model_for(*picks)
    surface = pygame.Surface(size)
    screen = screens["en"]
    shown = screen.frame(surface, model, now=3.0)
    assert len(shown) == len(picks)
    check_frame(screen, surface)
    path = png_dir / f"kiosk-split-{size[0]}x{size[1]}.png"
    pygame.image.save(surface, str(path))
    assert len(picks) >= 3
    assert sorted(decode_qr(path)) == sorted(f"{JOIN_URL}/?code=CODE{i}" for i in range(len(picks)))


def test_a_small_screen_shows_one_table_at_a_time(samples: dict[str, list[Sample]],
                                                  screens: dict[str, Screen]) -> None:
    picks = [Sample(g, "x", _retable(samples[g][1], f"t{i}", f"CODE{i}"))
             for i, g in enumerate(GAMES)]
    model = model_for(*picks)
    surface = pygame.Surface((800, 480))
    assert len(screens["en"].frame(surface, model, now=3.0)) == 1


def test_unknown_game_uses_the_generic_picture(samples: dict[str, list[Sample]],
                                               screens: dict[str, Screen]) -> None:
    base = samples["president"][1].state
    state = msgspec.structs.replace(base, game="chess", view={"type": "chess_view", "moves": 12,
                                                             "check": True, "pieces": [[1, 2]]})
    model = Model("127.0.0.1")
    model.link_up(WELCOME, 0.0)
    model.on_state(state, 0.0)
    screen = screens["fr"]
    surface = pygame.Surface((1280, 720))
    screen.frame(surface, model, now=1.0)
    check_frame(screen, surface)
    texts = [item.text for item in screen.text.drawn]
    assert any("chess" in t for t in texts)
    assert "12" in texts


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_with_no_client_code_is_drawn_readably(
        lang: str, size: tuple[int, int], screens: dict[str, Screen],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game, registered with one line and no kiosk code, through the generic picture."""
    monkeypatch.setitem(registry.GAME_MODULES, "toy", "tests.hostd.toy")
    screen = screens[lang]
    for sample in play_samples("toy", players=3):
        model = model_for(sample)
        surface = pygame.Surface(size)
        assert [e.id for e in screen.frame(surface, model, now=3.0)] == [sample.state.table]
        check_panels(screen, surface, sample.label)
        texts = " ".join(item.text for item in screen.text.drawn)
        assert sample.state.code in texts
        # The view's own fields are on screen, by name.
        assert "hand counts" in texts and "played" in texts, texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_waiting_and_reconnecting_pages(lang: str, samples: dict[str, list[Sample]],
                                        screens: dict[str, Screen]) -> None:
    screen = screens[lang]
    surface = pygame.Surface((1280, 720))
    model = Model("box.local")
    screen.frame(surface, model, now=0.0)  # connecting, nothing known yet
    check_frame(screen, surface)
    model.link_up(WELCOME, 0.0)
    screen.frame(surface, model, now=1.0)  # no table yet
    check_frame(screen, surface)
    sample = samples["euchre"][1]
    model.on_tables([sample.summary], 1.0)
    model.on_state(sample.state, 1.0)
    model.link_down(2.0)
    screen.frame(surface, model, now=2.5)  # the last picture, veiled
    check_frame(screen, surface)
    reconnecting = screen.tr.t("kiosk.reconnecting", host="box.local")
    assert reconnecting in [item.text for item in screen.text.drawn]


def _retable(sample: Sample, table: str, code: str) -> State:
    return msgspec.structs.replace(sample.state, table=table, code=code, name=f"Table {code}")


WIFI = "WIFI:T:WPA;S:tablebox Café du Coin;P:vauw-muv6-hfc2;;"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_on_the_boxs_own_wifi_both_codes_are_shown_and_read_back(
        lang: str, size: tuple[int, int], samples: dict[str, list[Sample]],
        screens: dict[str, Screen], png_dir: Path) -> None:
    sample = samples["euchre"][1]
    model = model_for(sample)
    model.link_up(msgspec.structs.replace(WELCOME, wifi=WIFI), 0.0)
    surface = pygame.Surface(size)
    screen = screens[lang]
    screen.frame(surface, model, now=3.0)
    check_frame(screen, surface)
    path = png_dir / f"kiosk-wifi-{lang}-{size[0]}x{size[1]}.png"
    pygame.image.save(surface, str(path))
    assert sorted(decode_qr(path)) == sorted([WIFI, f"{JOIN_URL}/?code={sample.state.code}"])
    drawn = [item.text for item in screen.text.drawn]
    assert screen.tr.t("kiosk.step_wifi") in drawn and screen.tr.t("kiosk.step_table") in drawn


@pytest.mark.parametrize("lang", LANGUAGES)
def test_titles_read_in_the_screens_language(lang: str, samples: dict[str, list[Sample]],
                                             screens: dict[str, Screen]) -> None:
    """A table's game reads in the kiosk's language (its catalogue's ``<game>.name``), and so does
    a table that kept its default name (the box's English title); a chosen name stays as is."""
    from clients.kiosk.i18n import Translator

    tr = Translator(lang)
    screen = screens[lang]
    for game in ("euchre", "president"):
        s = samples[game][1]
        default = Sample(game, "default", msgspec.structs.replace(s.state, name=game.capitalize()))
        chosen = Sample(game, "chosen", msgspec.structs.replace(s.state, name="Chez Léa"))
        for sample, name in ((default, tr.t(f"{game}.name")), (chosen, "Chez Léa")):
            surface = pygame.Surface((1280, 720))
            screen.frame(surface, model_for(sample), now=3.0)
            texts = [item.text for item in screen.text.drawn]
            assert any(name in x for x in texts), (game, lang, texts)
            assert any(tr.t(f"{game}.name") in x for x in texts), (game, lang, texts)
            if tr.t(f"{game}.name") != game.capitalize():  # French says "Euchre" too
                assert not any(game.capitalize() in x for x in texts), (game, lang, texts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_paused_table_says_it_waits_for_its_people(lang: str, samples: dict[str, list[Sample]],
                                                     screens: dict[str, Screen]) -> None:
    from clients.kiosk.i18n import Translator

    s = samples["euchre"][1]
    for paused in (False, True):
        sample = Sample("euchre", "paused", msgspec.structs.replace(s.state, paused=paused))
        surface = pygame.Surface((1280, 720))
        screens[lang].frame(surface, model_for(sample), now=3.0)
        check_frame(screens[lang], surface)
        texts = [item.text for item in screens[lang].text.drawn]
        assert (Translator(lang).t("kiosk.paused") in texts) is paused, texts
