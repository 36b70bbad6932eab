"""Crazy Eights through the daemon's leak check (tests/hostd/test_leaks.py) at the options the
registry-wide test does not play: one card then pass, no reshuffle (a blocked round is
likelier), penalty scoring, and draw-until-playable with up to three cards. One deck (fewer
players than the two-deck threshold), so a card code names one card and the byte check is
exact."""

from __future__ import annotations

from typing import Any

import pytest

from tests.hostd.test_leaks import check_one_table

CASES = [(3, {"draw": "one", "reshuffle": False, "scoring": "penalty", "target": 30}),
         (2, {"draw": "three", "draw_when_able": False, "target": 30})]


@pytest.mark.parametrize(("players", "options"), CASES, ids=["one-penalty-3", "three-2"])
async def test_no_hidden_card_reaches_a_client_at_other_options(
        players: int, options: dict[str, Any]) -> None:
    states = await check_one_table("crazy_eights", players, options)
    assert len(states) > 1
