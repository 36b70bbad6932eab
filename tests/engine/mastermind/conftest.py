"""Mastermind is not in ``registry.GAME_MODULES`` yet (its client side waits for the
presentation contract), so every test here registers it for its own duration, as
tests/engine/test_core.py registers the toy game. Replay and self-play find it by id."""

from __future__ import annotations

import pytest

from engine import registry


@pytest.fixture(autouse=True)
def mastermind_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "mastermind", "engine.mastermind")
