"""The page fits every phone: upright at 320x568 and 390x844, and on its side at 844x390.

For every registered game, on the seat's turn at a table with a long name, measured in a real
Chromium: nothing scrolls sideways and the browser does not zoom out; the bar's buttons are on
screen; every control is a 44 px touch target, cards at least 40 px wide and Sequence squares
at least the size docs/web-client.md states for that screen; the whole hand is in view (for a game whose descriptor has a hand); and
a notice never covers the status line. At the end "Game over" is said once and a losing
player is told they lost.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from engine import registry
from tests.clients.web.harness import Box, join, wait_for_turn_or_end

SIZES = {"320x568": (320, 568), "390x844": (390, 844), "844x390": (844, 390)}
# The smallest Sequence square per screen (docs/web-client.md, "Touch targets"): a 10x10
# board cannot have 44 px squares on a phone 390 px wide (it would need 440 px).
MIN_SQUARE = {"320x568": 24, "390x844": 36, "844x390": 32}
LONG_NAME = "The Saturday afternoon club's very long table name"

MEASURE = """() => {
  const W = innerWidth, H = innerHeight;
  const shown = (e) => e.offsetParent !== null && !e.closest('[hidden]');
  const box = (e) => e.getBoundingClientRect();
  const controls = [...document.querySelectorAll('button, input, select')].filter(shown)
    .filter((e) => !e.closest('.results'));
  const small = controls.filter((e) => !e.matches('.card, .sq'))
    .filter((e) => box(e).width < 43.5 || box(e).height < 43.5)
    .map((e) => `${e.dataset.key || e.textContent.trim().slice(0, 20)} ${Math.round(box(e).width)}x${Math.round(box(e).height)}`);
  const cards = controls.filter((e) => e.matches('.card')).map((e) => box(e).width);
  const squares = [...document.querySelectorAll('.board .sq')].map((e) => box(e).width);
  const off = controls.filter((e) => box(e).right > W + 0.5 || box(e).left < -0.5)
    .filter((e) => !e.closest('.seats, .hand-scroll')).map((e) => e.dataset.key || e.textContent.trim());
  const hand = document.querySelector('#game .hand');
  const status = document.querySelector('#status');
  const s = box(status);
  const atStatus = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
  return {
    W, H, scrollWidth: document.documentElement.scrollWidth, small, off,
    title: box(document.querySelector("#title")).width,
    minCard: cards.length ? Math.min(...cards) : null,
    minSquare: squares.length ? Math.min(...squares) : null,
    handBottom: hand ? box(hand).bottom : 0,
    statusCovered: !status.contains(atStatus),
  };
}"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", registry.ids())
def test_the_table_fits_the_phone(box: Box, browser: Browser, game: str, size: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        with box.held_table(game, seed=7, name=LONG_NAME) as table:
            join(page, box.url, table["code"])
        assert wait_for_turn_or_end(page)
        # A notice is showing ("Holder left..."): it must not hide whose turn it is.
        page.evaluate("() => { const t = document.querySelector('#toast'); t.textContent = "
                      "'A notice that is long enough to wrap onto two lines on a phone'; "
                      "t.hidden = false; }")
        m: dict[str, Any] = page.evaluate(MEASURE)
        assert m["W"] == width, "the browser zoomed out: something is wider than the screen"
        assert m["scrollWidth"] <= width, m
        assert m["off"] == [], m
        assert m["small"] == [], m
        if m["minCard"] is not None:
            assert m["minCard"] >= 39.5, m
        if game == "sequence":
            assert m["minSquare"] >= MIN_SQUARE[size], m
        if any(z.kind == "hand" for z in registry.get(game).info.presentation.zones):
            assert 0 < m["handBottom"] <= height + 0.5, m
        assert not m["statusCovered"], m
        # The table's name keeps room beside the bar's buttons (whose words give way to their
        # symbols on a narrow phone, and stay their names for screen readers).
        assert m["title"] >= width / 4, m
        assert page.get_by_role("button", name="Settings", exact=True).count() == 1
    finally:
        context.close()
