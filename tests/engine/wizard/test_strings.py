"""Every key the Wizard engine sends is in its catalogue in every language, with the English
placeholders (tests/engine/strings_check.py).

The shared check opens its games with a ``target`` option that Wizard does not have, so it is
given a Wizard whose option parsing drops that one and caps the game at five rounds (every
key the engine sends occurs by then: each phase, caption and last move, the final reason);
everything else is the real game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from clients.strings import LANGUAGES, catalogue
from engine.wizard import rules
from engine.wizard.rules import Wizard
from tests.engine.strings_check import check_catalogue, sent_keys


class _FiveRounds(Wizard):
    def validate(self, players: int, options: Mapping[str, object] | None) -> dict[str, Any]:
        kept = {k: v for k, v in (options or {}).items() if k != "target"}
        return super().validate(players, {"rounds": "5", **kept})


GAME = _FiveRounds()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sent_key_is_translated(lang: str) -> None:
    check_catalogue("wizard", GAME, rules.CODES, lang)


def test_the_scan_sees_the_keys_of_every_phase() -> None:
    keys = sent_keys("wizard", GAME, rules.CODES)
    assert {"wizard.phase.bidding", "wizard.phase.play",
            "wizard.phase.game_over", "wizard.last.bid", "wizard.last.play",
            "wizard.final_scores", "error.bid_not_allowed"} <= keys
    assert keys <= set(catalogue("wizard", "en")) | {f"error.{c}" for c in rules.CODES}
