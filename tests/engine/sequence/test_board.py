"""The Sequence board: the embedded commercial layout, line tables, and random layouts."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.match import Match
from engine.sequence import GAME
from engine.sequence import board as B
from engine.sequence.data import BoardLayout, Shuffle
from tests.engine.sequence.scenario import stacked_deck

# An independent transcription of the commercial board, kept in the repository (tests never
# read outside it). It is a verbatim copy of the developers' shared reference file of the same
# name (shared/data/, beside a checkout); its "source_note" says how it was cross-checked
# against the published layout. The engine embeds its own copy (board.COMMERCIAL_ROWS, since
# engine code never opens files); this test checks that the two agree.
TRANSCRIPTION = Path(__file__).resolve().parent / "data" / "sequence-board-commercial.json"


def test_commercial_layout_matches_the_independent_transcription() -> None:
    data = json.loads(TRANSCRIPTION.read_text(encoding="utf-8"))
    assert "cross-checked" in data["source_note"]
    assert [list(r) for r in B.COMMERCIAL_ROWS] == data["rows"]


def test_commercial_layout_is_a_possible_layout() -> None:
    assert B.layout_problem(B.COMMERCIAL_ROWS, twins_apart=False) is None
    counts = Counter(c for row in B.COMMERCIAL_ROWS for c in row)
    assert counts.pop("XX") == 4
    assert len(counts) == 48 and set(counts.values()) == {2}
    assert not any(code[0] == "J" for code in counts)


def test_line_tables() -> None:
    # 6 lines per row and per column, 36 per diagonal direction.
    assert len(B.WINDOWS) == 10 * 6 * 2 + 36 * 2
    assert all(m.bit_count() == 5 for m in B.WINDOW_MASKS)
    # A middle square lies on 5 lines in each of the four directions; a corner on 3.
    assert len(B.LINES_THROUGH[44]) == 20
    assert len(B.LINES_THROUGH[0]) == 3
    assert B.squares_of(B.CORNER_MASK) == [0, 9, 90, 99]
    assert B.squares_of(B.PLAYABLE_MASK) == [s for s in range(100) if s not in B.CORNERS]


def test_board_lines_and_the_best_arrangements_of_a_run() -> None:
    # 10 rows, 10 columns and 11 diagonals each way hold five or more squares.
    assert len(B.BOARD_LINES) == 42
    assert sorted(len(line) for line in B.BOARD_LINES) == sorted(
        [10] * 22 + [n for n in range(5, 10) for _ in range(4)])
    assert all(B.BOARD_LINES[B.LINE_AT[s][d]].count(s) == 1
               for s in range(100) for d in range(4) if B.LINE_AT[s][d] >= 0)
    assert B.LINE_AT[0][3] == -1 and B.LINE_AT[44][3] >= 0  # (0, 0) has no anti-diagonal
    # Runs of five to eight hold one sequence, nine and ten two.
    assert [len(a[0]) for a in B.ARRANGEMENTS] == [0] * 5 + [1] * 4 + [2] * 2
    assert B.ARRANGEMENTS[9] == ((0, 4),)
    assert B.ARRANGEMENTS[10] == ((0, 4), (0, 5), (1, 5))
    # Every square of a run lies in a window of one of its best arrangements, which is why the
    # protected chips (those of a counted sequence in some best arrangement) are every chip of
    # the run, that is of a complete window.
    for n in range(5, 11):
        assert {p + k for a in B.ARRANGEMENTS[n] for p in a for k in range(5)} == set(range(n))


@pytest.mark.parametrize("seed", range(25))
def test_random_layouts_keep_every_card_twice_and_twins_apart(seed: int) -> None:
    layout = B.random_layout(random.Random(seed))
    rows = B.rows_of(layout)
    assert B.layout_problem(rows, twins_apart=True) is None
    for s, c in enumerate(layout):
        if c != B.FREE:
            assert all(layout[n] != c for n in B.NEIGHBOURS[s])


def test_random_layouts_differ_by_seed_and_repeat_by_seed() -> None:
    a = B.random_layout(random.Random(1))
    assert a == B.random_layout(random.Random(1))
    assert a != B.random_layout(random.Random(2))


@pytest.mark.parametrize(
    ("mutate", "problem"),
    [
        (lambda g: g[0].__setitem__(0, "AS"), "corners"),
        (lambda g: g[5].__setitem__(5, "JD"), "belongs on the board"),
        (lambda g: g[5].__setitem__(5, g[5][6]), "exactly twice"),
        (lambda g: g.pop(), "10 rows"),
        (lambda g: g[3].pop(), "10 squares"),
    ],
)
def test_layout_problems_are_named(mutate, problem: str) -> None:
    grid = [list(r) for r in B.COMMERCIAL_ROWS]
    mutate(grid)
    found = B.layout_problem(grid, twins_apart=False)
    assert found is not None and problem in found


def test_random_board_is_a_chance_step_that_a_record_can_pin() -> None:
    m = Match.start(GAME, 2, {"board": "random"}, seed=5, resolve=False)
    pending = GAME.chance_outcome(m.state)
    assert isinstance(pending, BoardLayout)
    assert pending == GAME.chance_outcome(m.state)  # drawn from the seed: the same each time
    # Pin a different one: a valid layout is accepted and is what the view shows.
    pinned = B.rows_of(B.random_layout(random.Random(99)))
    m.apply_chance(BoardLayout(pinned))
    assert isinstance(GAME.chance_outcome(m.state), Shuffle)
    m.resolve_chance()
    assert m.view(0).layout == pinned


def test_a_pinned_layout_with_twins_side_by_side_is_refused() -> None:
    m = Match.start(GAME, 2, {"board": "random"}, seed=5, resolve=False)
    grid = list(B.COMMERCIAL)  # no twins touch on the commercial board
    twin = grid.index(grid[11], 12)
    grid[12], grid[twin] = grid[twin], grid[12]  # now squares 11 and 12 hold the same card
    state = m.state
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(BoardLayout(B.rows_of(tuple(grid))))
    assert e.value.code == "bad_chance" and "twin" in e.value.detail
    assert m.state is state and m.steps == []


def test_the_shuffle_must_be_exactly_two_decks() -> None:
    m = Match.start(GAME, 2, None, seed=0, resolve=False)
    deck = list(stacked_deck([]))
    for bad in (deck[:-1], [*deck[:-1], "AS"], [*deck[:-1], "ZZ"]):
        with pytest.raises(IllegalAction) as e:
            m.apply_chance(Shuffle(tuple(bad)))
        assert e.value.code == "bad_chance"
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(BoardLayout(B.COMMERCIAL_ROWS))
    assert e.value.code == "bad_chance"
    m.apply_chance(Shuffle(tuple(deck)))
    assert m.view(0).hand_counts == (7, 7)
    assert m.view(0).draw_pile == 104 - 14
