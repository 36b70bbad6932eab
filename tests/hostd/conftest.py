"""Daemon tests register the toy game (with computer players) as "toy"."""

from __future__ import annotations

import pytest

from engine import registry
from tests.hostd.helpers import TOY


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, *TOY)
