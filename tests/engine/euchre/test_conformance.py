"""The generic conformance check (tests/engine/conformance.py) with Euchre's options varied.

The registry-wide test runs the default options; this one walks every toggle, deep checks on
(every legal action applies, illegal ones are refused unchanged, views survive resampling of
the hidden cards byte for byte, records replay to the same views).
"""

from __future__ import annotations

import pytest

from engine.euchre import GAME
from tests.engine.conformance import play_random
from tests.engine.euchre.test_views import OPTION_SETS


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_deep_random_games(options: dict[str, object]) -> None:
    for seed in range(2):
        m = play_random(GAME, 500 + seed, 4, options, deep=True)
        assert m.outcome() is not None


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_quick_random_games(options: dict[str, object]) -> None:
    target = int(str(options.get("target", "10")))
    for seed in range(60):
        o = play_random(GAME, seed, 4, options).outcome()
        assert o is not None and max(o.scores) >= target
        assert set(o.winners) in ({0, 2}, {1, 3})
