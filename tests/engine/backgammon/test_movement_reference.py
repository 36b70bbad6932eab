"""Backgammon's movement rules against a brute-force reference on random positions.

The reference below is written from the USBGF text, not from engine/backgammon/moves.py: it
lists every ordering of the dice, plays each die wherever a checker may go (the bar first;
bearing off only with all fifteen home, by an exact die or, from the highest point, a
higher one), keeps the plays that use the most dice, and when that is one die of two
different ones, keeps only the larger if it can be played. A single step is then legal
exactly when it begins one of those plays. The engine must agree on the first step of every
roll, on the second step after each legal first one, on how many dice must be played, and on
the positions whole plays reach.
Positions are drawn to reach the edge cases often: checkers on the bar, closed points, and
bear-offs (all home, some already off, a blot of the opponent's in the home board).
"""

from __future__ import annotations

import random
from itertools import permutations

from engine.backgammon import moves as mv

Pos = tuple[tuple[int, ...], tuple[int, ...]]
POSITIONS = 200
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def ref_single(pos: Pos, die: int) -> list[tuple[int, int, int]]:
    """Every (src, dst, die) one checker may make with one die, mover's numbering."""
    mine, theirs = pos
    if mine[25]:
        dst = 25 - die
        return [(25, dst, die)] if theirs[dst] < 2 else []
    all_home = sum(mine[7:26]) == 0
    out = []
    for src in range(1, 25):
        if not mine[src]:
            continue
        if src - die >= 1:
            if theirs[src - die] < 2:
                out.append((src, src - die, die))
        elif all_home:
            highest = max(p for p in range(1, 7) if mine[p])
            if src in (die, highest):  # exact, or higher from the highest point
                out.append((src, 0, die))
    return out


def ref_move(pos: Pos, step: tuple[int, int, int]) -> Pos:
    mine, theirs = list(pos[0]), list(pos[1])
    src, dst, _ = step
    mine[src] -= 1
    mine[dst] += 1
    if 1 <= dst <= 24 and theirs[dst] == 1:
        theirs[dst] = 0
        theirs[0] += 1
    return tuple(mine), tuple(theirs)


def ref_plays(pos: Pos, a: int, b: int) -> list[tuple[tuple[int, int, int], ...]]:
    """Every legal whole play (a sequence of steps) for the roll a-b."""
    orders = {(a,) * 4} if a == b else set(permutations((a, b)))
    plays: set[tuple[tuple[int, int, int], ...]] = set()

    def go(p: Pos, dice: tuple[int, ...], path: tuple[tuple[int, int, int], ...]) -> None:
        moves = ref_single(p, dice[0]) if dice else []
        if not moves:
            plays.add(path)
            return
        for s in moves:
            go(ref_move(p, s), dice[1:], (*path, s))

    for order in orders:
        go(pos, order, ())
    most = max(len(x) for x in plays)
    best = [x for x in plays if len(x) == most]
    if most == 1 and a != b and any(x[0][2] == max(a, b) for x in best):
        best = [x for x in best if x[0][2] == max(a, b)]
    return best


def random_position(rng: random.Random) -> Pos:
    """One of three kinds: a bear-off (every checker home or off), a crowded middle game
    (some on the bar), or a few checkers facing closed points, where only one die, or one
    order of the dice, can often be played."""
    mine, theirs = [0] * 26, [0] * 26
    kind = rng.choice(("bear_off", "middle", "blocked"))
    spots = list(range(1, 7)) if kind == "bear_off" else list(range(1, 25))
    on_board = rng.randint(1, 3) if kind == "blocked" else 15
    for _ in range(on_board):
        r = rng.random()
        if r < 0.1 and kind == "middle":
            mine[25] += 1
        elif r < 0.25 and kind != "blocked":
            mine[0] += 1
        else:
            mine[rng.choice(spots)] += 1
    mine[0] += 15 - on_board
    if mine[0] == 15:
        mine[0], mine[rng.choice(spots)] = 14, 1
    left = 15
    while left:
        r = rng.random()
        if r < 0.05:
            theirs[0] += 1
            left -= 1
        elif r < 0.15:
            theirs[25] += 1
            left -= 1
        else:
            free = [p for p in range(1, 25) if not mine[p]]
            # Blots, and (mostly) closed points of two or three checkers.
            n = min(left, 1 if rng.random() < 0.2 else rng.randint(2, 3))
            theirs[rng.choice(free)] += n
            left -= n
    return tuple(mine), tuple(theirs)


def engine_first_steps(pos: Pos, a: int, b: int) -> tuple[int, set[tuple[int, int, int]]]:
    dice = mv.turn_dice(a, b)
    need = mv.most_playable(pos, dice)
    return need, set(mv.legal_steps(pos, dice, need, True))


def test_engine_agrees_with_the_reference_on_random_positions() -> None:
    rng = random.Random(18)
    checked = 0
    for _ in range(POSITIONS):
        pos = random_position(rng)
        for a, b in ROLLS:
            plays = ref_plays(pos, a, b)
            need, first = engine_first_steps(pos, a, b)
            assert need == len(plays[0]), (pos, a, b)
            assert first == {x[0] for x in plays if x}, (pos, a, b)
            dice = mv.turn_dice(a, b)
            for s in first:
                if need < 2:
                    continue
                left = list(dice)
                left.remove(s[2])
                after = set(mv.legal_steps(mv.apply_step(pos, s), tuple(left), need - 1, False))
                assert after == {x[1] for x in plays if x[0] == s}, (pos, a, b, s)
            # Whole plays (every die, doubles included): the positions the engine's step
            # lists can reach, walked as the rules walk them, are the reference's.
            ends = set()
            for x in plays:
                end = pos
                for step in x:
                    end = ref_move(end, step)
                ends.add(end)
            assert set(mv.final_positions(pos, dice)) == ends, (pos, a, b)
            checked += 1
    assert checked == POSITIONS * 21


def test_the_reference_itself_knows_the_edge_cases() -> None:
    """The reference is checked on the USBGF cases too, so an agreement means something."""
    empty = [0] * 26
    # Larger die: one checker on 24, 14 closed: 6 or 4 alone, never both -> the 6.
    mine = list(empty)
    mine[24], mine[0] = 1, 14
    theirs = list(empty)
    theirs[14], theirs[12], theirs[8], theirs[25] = 2, 2, 2, 9
    assert ref_plays((tuple(mine), tuple(theirs)), 6, 4) == [((24, 18, 6),)]
    # Forced order in the bear-off: a checker on 2 with 6-1 plays 2/1, 1/off (both dice).
    mine = list(empty)
    mine[2], mine[0] = 1, 14
    theirs = list(empty)
    theirs[25] = 15
    assert ref_plays((tuple(mine), tuple(theirs)), 6, 1) == [((2, 1, 1), (1, 0, 6))]
