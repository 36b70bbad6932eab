"""The refusal check the games' rules tests share: an illegal action raises ``IllegalAction``
with a stable code and changes nothing (the state, the steps, and every seat's view)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import IllegalAction
from engine.match import Match


def refusal(m: Match, seat: int, action: Any) -> str:
    """The code ``action`` is refused with; the match must be exactly as it was."""
    state, steps = m.state, list(m.steps)
    views = [m.view(s) for s in range(m.players)]
    with pytest.raises(IllegalAction) as e:
        m.act(seat, action)
    assert m.state is state and m.steps == steps
    assert [m.view(s) for s in range(m.players)] == views
    return e.value.code


def refused(m: Match, seat: int, action: Any, code: str) -> None:
    """``action`` is refused with ``code`` and changes nothing."""
    got = refusal(m, seat, action)
    assert got == code, got
