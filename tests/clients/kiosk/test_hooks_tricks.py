"""Kaiser's and Wizard's hooks on the kiosk's trick-taking family, from spectator states of games
played by random legal moves (the states the host sends, common part included), at 800x480
and 1920x1080, in English, French and Arabic.

Every text stays inside its box and its panel; each seat's call (Kaiser) or bid and tricks
(Wizard) is at its feet exactly as the view has it, a hidden bid only as "has bid"; between
rounds Wizard's score sheet is a table whose cells never collide, with the totals the view
holds.
"""

from __future__ import annotations

import random
from typing import Any

import pygame
import pytest

from bench.samples import seats_for
from clients.kiosk.games import renderer_for
from clients.kiosk.i18n import LANGUAGES
from clients.kiosk.render import Screen
from engine import registry
from engine.match import Match
from hostd.protocol.messages import State
from tests.clients.kiosk.screenshots import _message
from tests.clients.kiosk.test_families import descriptor, entry_of, model_of
from tests.clients.kiosk.test_render import check_panels

SIZES = [(800, 480), (1920, 1080)]
MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u2066\u2067\u2068\u2069"))


def states_of(game: str, options: dict[str, Any] | None = None, players: int = 4,
              seed: int = 5, every: int = 7) -> list[State]:
    """Spectator states every ``every`` moves, and each pause between hands (before the deal)."""
    match = Match.start(registry.get(game), players, options, seed)
    seats = seats_for(match.players, match.teams())
    rng = random.Random(seed)
    out: list[State] = []
    for version in range(5000):
        if match.outcome() is not None:
            break
        if not match.to_act():
            if match.game.between_hands(match.state):
                out.append(_message(match, game, version, seats))
            assert match.resolve_chance()
            continue
        if version % every == 0:
            out.append(_message(match, game, version, seats))
        legal = match.legal(match.to_act()[0])
        match.act(match.to_act()[0], legal[rng.randrange(len(legal))])
    out.append(_message(match, game, 5000, seats))
    return out


def frame(screen: Screen, state: State, size: tuple[int, int]) -> list[tuple[pygame.Rect, str]]:
    model = model_of(state, descriptor(state.game))
    assert renderer_for(entry_of(model)).__name__ == "<lambda>"  # the family, with its hook
    surface = pygame.Surface(size)
    screen.frame(surface, model, now=3.0)
    check_panels(screen, surface, f"{state.game} v{state.version} {size}")
    return [(item.rect, item.text.translate(MARKS)) for item in screen.text.drawn]


@pytest.fixture(scope="module")
def wizard() -> list[State]:
    return states_of("wizard", {"rounds": "5"}) + states_of("wizard", players=6, seed=2,
                                                            every=11)[:12]


@pytest.fixture(scope="module")
def kaiser() -> list[State]:
    return states_of("kaiser", every=3)[:40]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_wizard_bids_tricks_and_sheet(wizard: list[State], screens: dict[str, Screen],
                                      lang: str, size: tuple[int, int]) -> None:
    screen = screens[lang]
    phases = set()
    for state in wizard:
        v = state.view
        drawn = frame(screen, state, size)
        texts = [t for _, t in drawn]
        phases.add(v["phase"])
        if v["phase"] in ("trump", "bidding", "play") and size == (1920, 1080):
            for s, bid in enumerate(v["bids"]):
                if v["bids_in"][s]:
                    assert screen.tr.t("wizard.kiosk.note", bid=bid, taken=v["taken"][s]) in texts
        if v["phase"] == "round_over":
            # the sheet's cells are laid out as a table: no two of them overlap
            title = texts.index(screen.tr.t("wizard.field.sheet"))
            cells = [r for r, _ in drawn[title + 1:]]
            assert all(not a.colliderect(b) for i, a in enumerate(cells) for b in cells[i + 1:])
            assert [str(x) for x in v["sheet"][-1]["totals"]] == texts[-len(v["scores"]):]
            assert str(v["sheet"][-1]["round"]) in texts[title + 1:]
    assert {"bidding", "play", "round_over"} <= phases


def test_wizards_and_jesters_are_drawn_by_their_letter(wizard: list[State],
                                                         screens: dict[str, Screen]) -> None:
    """A card outside the four suits shows its letter, never a "?" for the suit it lacks."""
    specials = 0
    for state in wizard:
        shown = [c["card"] for c in state.view.get("trick") or [] if isinstance(c, dict)]
        if any(str(c)[0] in "WN" for c in shown):
            specials += 1
            texts = [t for _, t in frame(screens["en"], state, (1920, 1080))]
            assert "?" not in texts, texts
    assert specials > 0, "no Wizard or Jester was played in the sample"


def test_wizard_hidden_bids_are_only_said_to_be_in(screens: dict[str, Screen]) -> None:
    screen = screens["en"]
    seen = 0
    for state in states_of("wizard", {"hidden_bids": True, "rounds": "5"}, every=1):
        v = state.view
        if v["phase"] != "bidding":
            continue
        assert all(b is None for b in v["bids"])  # a spectator's view never has them
        texts = [t for _, t in frame(screen, state, (1920, 1080))]
        assert texts.count("has bid") == sum(v["bids_in"])
        seen += sum(v["bids_in"])
    assert seen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_kaiser_calls_contract_and_trump(kaiser: list[State], screens: dict[str, Screen],
                                         lang: str, size: tuple[int, int]) -> None:
    screen = screens[lang]
    t = screen.tr.t
    calls = contracts = 0
    for state in kaiser:
        v = state.view
        texts = [x for _, x in frame(screen, state, size)]
        if size != (1920, 1080):
            continue
        if v["phase"] in ("bidding", "trump"):
            for b in v["bids"]:
                word = (t("kaiser.action.pass") if b["value"] is None else
                        t("kaiser.bid_nt", value=b["value"]) if b["no_trump"] else str(b["value"]))
                assert word in texts, (word, texts)
                calls += 1
        if v["bid"] is not None and v["phase"] == "play":
            bid = t("kaiser.bid_nt", value=v["bid"]) if v["no_trump"] else str(v["bid"])
            assert any(x.endswith(f" · {bid}") for x in texts), texts
            assert (t("kaiser.no_trump") in texts) == v["no_trump"]
            contracts += 1
    assert size != (1920, 1080) or (calls and contracts)
