"""Every key the crazy_eights engine sends is in its catalogue in every language
(tests/engine/strings_check.py)."""

from __future__ import annotations

import pytest

from clients.strings import LANGUAGES
from engine.crazy_eights import GAME, rules
from tests.engine.strings_check import check_catalogue


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sent_key_is_translated(lang: str) -> None:
    check_catalogue("crazy_eights", GAME, rules.CODES, lang)
