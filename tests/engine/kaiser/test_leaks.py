"""Kaiser through the daemon's leak check (tests/hostd/test_leaks.py) at the options the
registry-wide test does not play: misdeals (a junk hand is shown to all when it is thrown in,
and only then), no no-trump, no defender restriction, a short game. Every frame each client
received is checked against the true states replayed from the record."""

from __future__ import annotations

from tests.hostd.test_leaks import check_one_table


async def test_no_hidden_card_reaches_a_client_at_other_options() -> None:
    states = await check_one_table("kaiser", 4, {"misdeal": True, "no_trump": False,
                                                 "restriction": "off", "min_bid": 5})
    assert len(states) > 1
