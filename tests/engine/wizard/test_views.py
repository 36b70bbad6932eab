"""Wizard views keep hidden information on the host (tests/engine/hand_redaction.py)."""

from __future__ import annotations

from engine.wizard import GAME
from tests.engine.hand_redaction import (
    check_other_hands_never_reach_a_view,
    check_own_hand_is_visible,
)


def test_other_hands_never_reach_a_view() -> None:
    check_other_hands_never_reach_a_view(GAME)


def test_own_hand_is_visible() -> None:
    check_own_hand_is_visible(GAME)
