"""Golf computer players: every level plays only legal actions on every layout, normal beats
easy by mean score on pinned seeds, and the estimate scores column pairs as the rules do.
The published figures (hard against normal too) come from ``python -m bench.draw_ai``.
"""

from __future__ import annotations

import pytest

from engine.golf import GAME, PLAYERS
from engine.golf.ai import Odds, estimate
from engine.match import Match
from tests.engine.level_play import play_levels


def play(levels: tuple[str, ...], seed: int, options: dict[str, object]) -> Match:
    return play_levels(GAME, PLAYERS, levels, seed, options)


@pytest.mark.parametrize("layout", ["4", "6", "8", "9"])
def test_every_level_plays_legally_to_the_end(layout: str) -> None:
    play(("random", "easy", "normal", "hard"), 4, {"layout": layout, "holes": 2})
    play(("hard", "normal"), 5, {"layout": layout, "holes": 1, "flip": "mandatory"}
         if layout != "4" else {"layout": layout, "holes": 1})


def test_normal_beats_easy_by_mean_score() -> None:
    normal = easy = 0
    for g in range(8):
        levels = ("normal", "easy") if g % 2 == 0 else ("easy", "normal")
        o = play(levels, 700 + g, {"holes": 3}).outcome()
        assert o is not None
        normal += o.scores[levels.index("normal")]
        easy += o.scores[levels.index("easy")]
    assert normal + 8 * 3 * 5 < easy, (normal, easy)  # by more than 5 a hole


def test_the_estimate_counts_column_pairs_as_zero() -> None:
    odds = Odds(None)
    assert estimate(["2S", "KS", "9S", "2H", "KH", "9H"], 2, 3, odds) == 0
    assert estimate(["QS", "", "", "QH", "", ""], 2, 3, odds) == 4 * odds.mean
