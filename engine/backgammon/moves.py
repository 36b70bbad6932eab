"""Checker movement in the mover's own numbering: steps, the most dice playable, and which
single steps keep the most dice in play (the "use both dice, else the larger" rule).

A position here is ``(mine, theirs)``, two 26-tuples: ``mine[p]`` is the mover's checkers on
its point ``p`` (25 its bar, 0 borne off); ``theirs[p]`` the opponent's checkers on the
mover's point ``p`` (0 the opponent's bar, 25 borne off). Pure functions, no state; they must
never look at a seat, a view or a generator.
"""

from __future__ import annotations

from functools import lru_cache

Side = tuple[int, ...]
Pos = tuple[Side, Side]
Step = tuple[int, int, int]  # (src, dst, die)


def can_bear_off(mine: Side) -> bool:
    return not any(mine[7:26])


def steps_for_die(pos: Pos, die: int) -> list[Step]:
    mine, theirs = pos
    if mine[25]:
        dst = 25 - die
        return [(25, dst, die)] if theirs[dst] <= 1 else []
    out: list[Step] = []
    home = can_bear_off(mine)
    for src in range(24, 0, -1):
        if not mine[src]:
            continue
        dst = src - die
        if dst >= 1:
            if theirs[dst] <= 1:
                out.append((src, dst, die))
        elif home and (dst == 0 or not any(mine[src + 1:7])):
            out.append((src, 0, die))
    return out


def apply_step(pos: Pos, step: Step) -> Pos:
    mine, theirs = pos
    src, dst, _ = step
    m = list(mine)
    m[src] -= 1
    m[dst] += 1
    if dst >= 1 and theirs[dst] == 1:
        t = list(theirs)
        t[dst] = 0
        t[0] += 1
        return tuple(m), tuple(t)
    return tuple(m), theirs


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = dice.index(die)
    return dice[:i] + dice[i + 1:]


@lru_cache(maxsize=65536)
def most_playable(pos: Pos, dice: tuple[int, ...]) -> int:
    """The most of ``dice`` that can be played in some order from ``pos``."""
    best = 0
    for die in set(dice):
        rest = _without(dice, die)
        for step in steps_for_die(pos, die):
            n = 1 + most_playable(apply_step(pos, step), rest)
            if n > best:
                best = n
                if best == len(dice):
                    return best
    return best


def legal_steps(pos: Pos, dice: tuple[int, ...], need: int, first: bool) -> list[Step]:
    """The single steps from ``pos`` after which ``need - 1`` more dice can still be played.

    ``first`` with two different dice of which only one can be played: the larger must be
    played if it can be (USBGF: "if either number can be played but not both, the larger")."""
    if need <= 0:
        return []
    out = []
    for die in sorted(set(dice), reverse=True):
        rest = _without(dice, die)
        for step in steps_for_die(pos, die):
            if 1 + most_playable(apply_step(pos, step), rest) >= need:
                out.append(step)
    if first and need == 1 and len(dice) == 2 and dice[0] != dice[1]:
        big = [s for s in out if s[2] == max(dice)]
        if big:
            return big
    return out


def turn_dice(a: int, b: int) -> tuple[int, ...]:
    return (a,) * 4 if a == b else (max(a, b), min(a, b))


def pips(side: Side) -> int:
    return sum(p * side[p] for p in range(1, 26))


def final_positions(pos: Pos, dice: tuple[int, ...],
                    first: bool = True) -> dict[Pos, tuple[Step, ...]]:
    """Every distinct position a whole legal play of ``dice`` reaches, with one play to it."""
    need = most_playable(pos, dice)
    out: dict[Pos, tuple[Step, ...]] = {}
    seen: set[tuple[Pos, tuple[int, ...]]] = set()

    def walk(p: Pos, left: tuple[int, ...], path: tuple[Step, ...], first: bool) -> None:
        if (p, left) in seen:
            return
        seen.add((p, left))
        n = need - len(path)
        if n == 0:
            out.setdefault(p, path)
            return
        for s in legal_steps(p, left, n, first):
            walk(apply_step(p, s), _without(left, s[2]), (*path, s), False)

    walk(pos, dice, (), first)
    return out


def reply_positions(pos: Pos, dice: tuple[int, ...]) -> list[Pos]:
    """The positions a whole play of ``dice`` can reach, for look-ahead: the plays that use
    the most dice (without the larger-die refinement, which changes little in an estimate)."""
    best = 0
    out: dict[Pos, None] = {}
    seen: set[tuple[Pos, int]] = set()
    stack: list[tuple[Pos, tuple[int, ...], int]] = [(pos, dice, 0)]
    while stack:
        p, left, depth = stack.pop()
        moved = False
        for die in set(left):
            rest = _without(left, die)
            for step in steps_for_die(p, die):
                q = apply_step(p, step)
                if (q, len(rest)) not in seen:
                    seen.add((q, len(rest)))
                    stack.append((q, rest, depth + 1))
                moved = True
        if not moved or not left:
            if depth > best:
                best, out = depth, {}
            if depth == best:
                out[p] = None
    return list(out) or [pos]
