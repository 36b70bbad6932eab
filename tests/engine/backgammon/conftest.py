"""Backgammon is not in ``registry.GAME_MODULES`` yet (the lead registers it once clients draw
it), so every test here registers it for its own duration."""

from __future__ import annotations

import pytest

from engine import registry


@pytest.fixture(autouse=True)
def backgammon_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "backgammon", "engine.backgammon")
