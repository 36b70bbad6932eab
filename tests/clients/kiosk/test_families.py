"""The family renderers: chosen by the presentation descriptor (never the game id), drawn from
the view and the common part exactly as the host sends them, for every registered game.

States here carry the ``common`` part the table core adds to every state message, so the
captions, scores and sides the families read from it are on screen; the descriptor is the
catalogue entry's, as data.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pygame
import pytest

from bench.samples import GAMES, WELCOME
from clients.kiosk import draw as d
from clients.kiosk.games import FAMILIES, generic, renderer_for
from clients.kiosk.games.public import public
from clients.kiosk.i18n import LANGUAGES
from clients.kiosk.model import Model, TableEntry
from clients.kiosk.render import Screen
from engine import registry
from engine.codec import to_data
from hostd.protocol.messages import State
from tests.clients.kiosk.screenshots import spectator_states
from tests.clients.kiosk.test_render import check_panels

DRAWN_BY_FAMILY = {"sequence": "grid_board", "euchre": "trick_taking",
                   "president": "shedding", "checkers": "grid_board"}


def descriptor(game: str) -> dict[str, Any]:
    data: dict[str, Any] = to_data(registry.get(game).info.presentation)
    return data


@pytest.fixture(scope="module")
def states() -> dict[str, list[State]]:
    return {game: spectator_states(game) for game in GAMES}


def model_of(state: State, presentation: dict[str, Any] | None) -> Model:
    m = Model("127.0.0.1")
    m.link_up(WELCOME, 0.0)
    m.on_state(state, 0.0)
    if presentation is not None:
        m.learn(state.game, presentation)
    return m


def entry_of(model: Model) -> TableEntry:
    return next(iter(model.tables.values()))


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_is_drawn_from_its_view_its_common_part_and_its_descriptor(
        game: str, lang: str, size: tuple[int, int], states: dict[str, list[State]],
        screens: dict[str, Screen]) -> None:
    screen = screens[lang]
    for i, state in enumerate(states[game]):
        model = model_of(state, descriptor(game))
        surface = pygame.Surface(size)
        assert [e.id for e in screen.frame(surface, model, now=3.0)] == ["t1"]
        check_panels(screen, surface, f"{game} #{i}")
        if game in DRAWN_BY_FAMILY:
            assert renderer_for(entry_of(model)) is not generic.draw, (game, i)


def screen_ctx(screen: Screen, surface: pygame.Surface) -> d.Ctx:
    return d.Ctx(surface, screen.text, screen.tr, 3.0)


def test_the_family_comes_from_the_descriptor(states: dict[str, list[State]]) -> None:
    for game in GAMES:
        family = descriptor(game)["family"]
        entry = entry_of(model_of(states[game][len(states[game]) // 2], descriptor(game)))
        drawn_by_family = renderer_for(entry) is not generic.draw
        assert drawn_by_family == (family in FAMILIES), game
        if game in DRAWN_BY_FAMILY:
            assert family == DRAWN_BY_FAMILY[game] and drawn_by_family, game
        # without a descriptor (a box that sends none), the game id alone picks nothing
        bare = entry_of(model_of(states[game][len(states[game]) // 2], None))
        assert renderer_for(bare) is generic.draw, game


@pytest.mark.parametrize("game", list(DRAWN_BY_FAMILY))
def test_a_family_never_needs_the_game_id(game: str, states: dict[str, list[State]],
                                          screens: dict[str, Screen]) -> None:
    """The same view under an id no client knows, with the same descriptor: the family draws
    it (without the game's hook), every text in its place."""
    screen = screens["en"]
    for state in states[game]:
        renamed = msgspec.structs.replace(state, game="not_a_known_game")
        model = model_of(renamed, descriptor(game))
        entry = entry_of(model)
        assert renderer_for(entry) is not generic.draw
        surface = pygame.Surface((1280, 720))
        screen.frame(surface, model, now=3.0)
        check_panels(screen, surface, game)


def test_a_view_the_family_cannot_read_gets_the_generic_picture(
        states: dict[str, list[State]], screens: dict[str, Screen]) -> None:
    # a grid game's descriptor over a view without its grid: generic, and still readable
    state = msgspec.structs.replace(states["president"][1], game="chess",
                                    view={"type": "chess_view", "moves": 12, "check": True})
    model = model_of(state, descriptor("checkers"))
    assert renderer_for(entry_of(model)) is generic.draw
    surface = pygame.Surface((1280, 720))
    screens["en"].frame(surface, model, now=3.0)
    assert "12" in [item.text for item in screens["en"].text.drawn]


@pytest.mark.parametrize("game", [g for g in GAMES if g in ("checkers", "golf", "mastermind")])
def test_the_common_captions_are_on_screen_for_a_game_without_its_own_picture(
        game: str, states: dict[str, list[State]], screens: dict[str, Screen]) -> None:
    """Checkers (a family with a hook for its pieces only), Golf (its family, no hook) and
    Mastermind (a family without a renderer: the generic picture) show the game's captions and
    last move, from the common part."""
    screen = screens["en"]
    shown = 0
    for state in states[game]:
        model = model_of(state, descriptor(game))
        surface = pygame.Surface((1920, 1080))
        screen.frame(surface, model, now=14.0)  # the outcome card has stepped aside
        pub = public(screen_ctx(screen, surface), entry_of(model))
        texts = " ".join(item.text for item in screen.text.drawn)
        for words in (*pub.captions, pub.last):
            if words:
                assert words in texts, (words, texts)
                shown += 1
    assert shown


def test_side_colours_come_from_the_descriptor(states: dict[str, list[State]]) -> None:
    entry = entry_of(model_of(states["euchre"][0], descriptor("euchre")))
    assert d.side_color(1, entry) == d.NAMED_COLORS["red"]
    assert d.side_color(1) == d.SIDE_COLORS[1]  # a game that names none: the kiosk's order


def test_the_grid_family_prints_faces_and_says_each_sides_standing(
        states: dict[str, list[State]], screens: dict[str, Screen]) -> None:
    """Sequence's printed board (the descriptor's ``faces``) and each team's standing (the common
    part's ``side_notes``) are the grid family's: drawn the same under an id no client knows,
    so without Sequence's hook; a plain board (Checkers) prints no card."""
    screen = screens["en"]
    state = states["sequence"][-1]
    model = model_of(msgspec.structs.replace(state, game="not_a_known_game"),
                     descriptor("sequence"))
    screen.frame(pygame.Surface((1920, 1080)), model, now=3.0)
    texts = [item.text for item in screen.text.drawn]
    view, common = state.view, state.common or {}
    ranks = {screen.tr.rank(code[0]) for row in view["layout"] for code in row if code != "XX"}
    assert ranks <= set(texts) and "★" in texts and "♥" in texts
    for side, n in enumerate(common["scores"]):
        said = screen.tr.t("sequence.side", n=n, goal=view["rules"]["sequences_to_win"])
        assert any(t.startswith(said) for t in texts), (side, said, texts)
    plain = model_of(states["checkers"][-1], descriptor("checkers"))
    screen.frame(pygame.Surface((1920, 1080)), plain, now=3.0)
    assert "♥" not in [item.text for item in screen.text.drawn]
