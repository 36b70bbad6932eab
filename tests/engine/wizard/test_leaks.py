"""Wizard through the daemon's leak check (tests/hostd/test_leaks.py) at the option sets whose
secrets differ from the registry-wide test's defaults: hidden bids (a bid is its bidder's alone
until the last is made), and screw-the-dealer with three and six players. Every frame each
client received is checked against the true states replayed from the record."""

from __future__ import annotations

from typing import Any

import pytest

from tests.hostd.test_leaks import check_one_table

CASES = [(3, {"hidden_bids": True, "rounds": "5"}),
         (6, {"screw_the_dealer": True, "rounds": "5"})]


@pytest.mark.parametrize(("players", "options"), CASES, ids=["hidden-3", "screw-6"])
async def test_no_hidden_card_or_bid_reaches_a_client_that_may_not_know_it(
        players: int, options: dict[str, Any]) -> None:
    states = await check_one_table("wizard", players, options)
    assert len(states) > 1
