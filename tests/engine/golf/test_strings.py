"""Every key the golf engine sends is in its catalogue in every language
(tests/engine/strings_check.py)."""

from __future__ import annotations

import pytest

from clients.strings import LANGUAGES
from engine.golf import GAME, rules
from tests.engine.strings_check import check_catalogue


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sent_key_is_translated(lang: str) -> None:
    check_catalogue("golf", GAME, rules.CODES, lang)
