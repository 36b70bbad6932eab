"""Every key the Wizard engine sends is in its catalogue in every language, with the English
placeholders (tests/engine/strings_check.py).

Games capped at five rounds: every key the engine sends occurs by then (each phase, caption
and last move, the final reason).
"""

from __future__ import annotations

import pytest

from clients.strings import LANGUAGES, catalogue
from engine.wizard import GAME, rules
from tests.engine.strings_check import check_catalogue, sent_keys

SENT = sent_keys("wizard", GAME, rules.CODES, options=({"rounds": "5"},))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sent_key_is_translated(lang: str) -> None:
    check_catalogue("wizard", GAME, rules.CODES, lang, SENT)


def test_the_scan_sees_the_keys_of_every_phase() -> None:
    assert {"wizard.phase.bidding", "wizard.phase.play",
            "wizard.phase.game_over", "wizard.last.bid", "wizard.last.play",
            "wizard.final_scores", "error.bid_not_allowed"} <= SENT
    known = set(catalogue("wizard", "en")) | {f"error.{c}" for c in rules.CODES}
    assert SENT - known == set()
