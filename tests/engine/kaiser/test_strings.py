"""Every key the Kaiser engine sends (captions, the last move, reasons, phases, action types
and refusal codes) is in its catalogue in English, French and Arabic, with the English
placeholders, and no key repeats one of the shell's (tests/engine/strings_check.py).

Four seats, both option sets, and the normal player's moves: random play rarely bids well
enough to make or fail every kind of contract.
"""

from __future__ import annotations

import pytest

from clients.strings import LANGUAGES
from engine.kaiser import GAME, PLAYERS
from engine.kaiser.rules import CODES
from tests.engine.strings_check import check_catalogue, sent_keys

OPTION_SETS: tuple[dict[str, object], ...] = (
    {}, {"misdeal": True, "no_trump": False, "restriction": "off"})
SENT = sent_keys("kaiser", GAME, CODES, players=4, options=OPTION_SETS, seeds=8,
                 player=PLAYERS["normal"])


def test_the_walk_sees_every_kind_of_key() -> None:
    for key in ("kaiser.last.bid", "kaiser.last.pass", "kaiser.last.play", "kaiser.last.trick",
                "kaiser.last.trump", "kaiser.last.made", "kaiser.last.failed", "kaiser.contract",
                "kaiser.phase.hand_over", "kaiser.phase.game_over", "kaiser.reached_target"):
        assert key in SENT, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sent_key_is_translated(lang: str) -> None:
    check_catalogue("kaiser", GAME, CODES, lang, SENT)
