"""Sequence's computer players: random, easy, normal and hard (docs/ai.md, "Sequence").

Every player is a pure function of the seat's view, the legal actions and a generator the
host seeds; it never sees the true state. To know what a move does it deals the hidden cards
at random (sampling.py, which reads only the view) and applies the move with the engine, so
the players never re-implement a rule.

The evaluation counts, for each team, its live five-square lines (no opposing chip; not
overlapping one of its sequences by two squares), weighted steeply by the chips already in
them, plus completed sequences. A move is worth the change it makes, looked at only on the
lines through the squares it changed. ``Weights`` holds every number, so levels differ only
in their weights and in how far they look.

- easy: half the time the move that most extends its own lines, otherwise a random one.
- normal: one move ahead with the full evaluation: its lines, blocking the opponents' (a four
  that would win counts most), jacks spent only when they buy more than they cost, dead cards
  exchanged at once.
- hard: card counting on top: an empty square's worth in a line depends on who can still
  reach it (it holds the card; every other copy is in its hand or the discards, so only a
  jack can contest it; no copy is left for anyone), and jacks are kept for winning or saving
  the game. Where a line is one or two chips from winning, it searches: for each of its best
  moves and each of a fixed number of deals of the unseen cards, the next opponent answers
  with normal's choice from its sampled hand and the outcome is scored. The work is a fixed
  count of candidates and deals, never the clock, so a decision is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai import RandomPlayer
from engine.sequence import board as B
from engine.sequence.data import Discard, Double, ExchangeDead, Remove, SequenceView, Wild
from engine.sequence.rules import GAME
from engine.sequence.sampling import Sampler
from engine.sequence.state import OVER, PLAY, RESHUFFLE, State

WIN = 100_000.0
EXCHANGE_FIRST = 1e9  # a dead-card exchange costs nothing and keeps the turn


@dataclass(frozen=True)
class Weights:
    """Every number the evaluation uses."""

    lines: tuple[float, ...] = (0.0, 1.0, 4.0, 16.0, 64.0)  # by chips in a live line
    winning: tuple[float, ...] = (0.0, 1.0, 4.0, 16.0, 1500.0)  # a line that would win
    sequence: float = 300.0
    defence: float = 1.15  # an opponent's line counts this much more than one's own
    defend_from: int = 1  # opponents' lines with fewer chips than this are not looked at
    cost_wild: float = 45.0
    cost_remove: float = 35.0
    # Card counting (hard): how a gap in a line weighs, by who can fill it.
    counting: bool = False
    count_from: int = 2  # lines with fewer chips than this are not re-weighed by their gaps
    mine_held: float = 1.0  # I hold its card
    mine_exclusive: float = 1.0  # ... and no other copy is unseen
    mine_unseen: float = 1.0
    mine_gone: float = 1.0  # no copy left outside the discards (only a jack will do)
    theirs_unseen: float = 1.0
    theirs_gone: float = 1.0


# Normal chases long lines (steep weights) and only looks at an opponent's line once it is a
# four; hard weighs every line more evenly, defends earlier, values sequences more, counts
# cards and keeps its jacks. Measured in docs/ai.md.
NORMAL = Weights(defend_from=4, lines=(0.0, 1.0, 6.0, 36.0, 200.0),
                 winning=(0.0, 1.0, 6.0, 36.0, 1500.0))
HARD = Weights(counting=True, defence=1.3, sequence=500.0, cost_wild=200.0, cost_remove=150.0,
               mine_held=2.0, mine_exclusive=3.0, mine_gone=0.4, theirs_gone=0.3)


@dataclass
class Context:
    """One decision: who decides, what it holds, and (with counting) who can reach what."""

    team: int
    hand: tuple[int, ...]
    unseen: list[int]  # per card: copies the seat cannot see
    weights: Weights
    mine: list[float] | None = None  # per square, for the deciding team's lines
    theirs: list[float] | None = None  # per square, for everyone else's


def context(sampler: Sampler, weights: Weights) -> Context:
    counts = [0] * len(B.CARDS)
    for c in sampler.unseen:
        counts[c] += 1
    seat = sampler.view.seat
    assert seat is not None
    ctx = Context(sampler.rules.team_of[seat], sampler.hand, counts, weights)
    if weights.counting:
        ctx.mine, ctx.theirs = reach(sampler.tables.layout, ctx, sampler.hand)
    return ctx


def reach(layout: B.Layout, ctx: Context, hand: Sequence[int]) -> tuple[list[float], list[float]]:
    """Per square: how a gap there weighs in my lines (holding ``hand``) and in theirs."""
    w = ctx.weights
    held = set(hand)
    mine: list[float] = []
    theirs: list[float] = []
    for c in layout:
        if c == B.FREE:
            mine.append(1.0)
            theirs.append(1.0)
            continue
        unseen = ctx.unseen[c]
        if c in held:
            mine.append(w.mine_exclusive if unseen == 0 else w.mine_held)
        else:
            mine.append(w.mine_unseen if unseen else w.mine_gone)
        theirs.append(w.theirs_unseen if unseen else w.theirs_gone)
    return mine, theirs


def line_value(w: int, own: int, others: int, seqs: tuple[int, ...], table: tuple[float, ...],
               gaps_weight: list[float] | None, least: int = 0, count_from: int = 2) -> float:
    """One line's worth to the team owning ``own`` (its chips and the corners)."""
    if w & others:
        return 0.0
    k = (w & own).bit_count()
    if k >= 5 or k < least:
        return 0.0  # a sequence is counted as such
    for e in seqs:
        if (w & e).bit_count() > 1:
            return 0.0
    value = table[k]
    if gaps_weight is not None and value and k >= count_from:
        for g in B.squares_of(w & ~own):
            value *= gaps_weight[g]
    return value


def lines_value(st: State, ctx: Context, lines: Sequence[int],
                mine: list[float] | None, theirs: list[float] | None) -> float:
    """The given lines' worth to the deciding team: its own minus the opponents' (weighted)."""
    w = ctx.weights
    total = 0.0
    occ = st.occ
    to_win = st.rules.to_win
    for t, chips in enumerate(st.chips):
        own = chips | B.CORNER_MASK
        others = occ & ~chips
        seqs = st.seqs[t]
        table = w.winning if to_win and len(seqs) + 1 >= to_win else w.lines
        gaps = mine if t == ctx.team else theirs
        least = 0 if t == ctx.team else w.defend_from
        v = 0.0
        for line in lines:
            v += line_value(line, own, others, seqs, table, gaps, least, w.count_from)
        total += v if t == ctx.team else -w.defence * v
    return total


def sequences_value(st: State, ctx: Context) -> float:
    total = 0.0
    for t, seqs in enumerate(st.seqs):
        total += ctx.weights.sequence * len(seqs) * (1.0 if t == ctx.team else -ctx.weights.defence)
    return total


def terminal_value(st: State, team: int) -> float:
    o = st.result
    assert o is not None
    if o.draw or not o.winners:
        return 0.0
    return WIN if st.rules.team_of[o.winners[0]] == team else -WIN


def changed_squares(before: State, after: State) -> int:
    changed = 0
    for a, b in zip(before.chips, after.chips, strict=True):
        changed |= a ^ b
    return changed


def lines_through(mask: int) -> Sequence[int]:
    squares = B.squares_of(mask)
    if len(squares) == 1:
        return B.LINES_THROUGH[squares[0]]
    out: set[int] = set()
    for s in squares:
        out.update(B.LINES_THROUGH[s])
    return tuple(out)


def cards_of(action: Any) -> list[int]:
    c = B.CARD_INDEX[action.card]
    return [c, c] if isinstance(action, Double) else [c]


def move_value(before: State, after: State, action: Any, ctx: Context) -> float:
    """What a move changed for the deciding team, minus what its jack was worth keeping."""
    if after.result is not None:
        return terminal_value(after, ctx.team)
    w = ctx.weights
    changed = changed_squares(before, after)
    mine_after = mine_before = ctx.mine
    if w.counting:
        # The card played leaves the hand: lines through its squares are re-weighed too.
        hand = list(ctx.hand)
        for c in cards_of(action):
            hand.remove(c)
            changed |= before.tables.card_mask[c]
        mine_after, _ = reach(before.tables.layout, ctx, hand)
    lines = lines_through(changed)
    value = (lines_value(after, ctx, lines, mine_after, ctx.theirs)
             - lines_value(before, ctx, lines, mine_before, ctx.theirs)
             + sequences_value(after, ctx) - sequences_value(before, ctx))
    if isinstance(action, Wild):
        value -= w.cost_wild
    elif isinstance(action, Remove):
        value -= w.cost_remove
    return value


def discard_keep(st: State, action: Discard) -> float:
    """How much a card is worth keeping (for choosing what to throw when stuck)."""
    c = B.CARD_INDEX[action.card]
    if c in B.JACKS:
        return 1000.0
    return float((st.tables.card_mask[c] & ~st.occ).bit_count())


Scored = tuple[float, int, "State | None"]


def scored_moves(st: State, seat: int, legal: Sequence[Any], ctx: Context) -> list[Scored]:
    """(value, index, state after) for every legal action; best first."""
    out: list[Scored] = []
    for i, a in enumerate(legal):
        if isinstance(a, ExchangeDead):
            out.append((EXCHANGE_FIRST, i, None))
        elif isinstance(a, Discard):
            out.append((-discard_keep(st, a), i, None))
        else:
            after = GAME.apply(st, seat, a)
            out.append((move_value(st, after, a, ctx), i, after))
    out.sort(key=lambda x: -x[0])
    return out


def own_lines_gain(before: State, after: State, team: int) -> float:
    """Easy's view of a move: how much it extends its own lines, nothing else."""
    chips = after.chips[team] | B.CORNER_MASK
    others = after.occ & ~after.chips[team]
    return sum(NORMAL.lines[min(4, (w & chips).bit_count())]
               for w in lines_through(changed_squares(before, after)) if not w & others)


def pick(scored: list[Scored], rng: random.Random) -> int:
    """The best index; ties broken by the generator."""
    top = scored[0][0]
    ties = [i for v, i, _ in scored if v >= top - 1e-9]
    return ties[rng.randrange(len(ties))]


class EasyPlayer:
    """Half the time the move that most extends its own lines; otherwise any legal move."""

    level = "easy"
    greedy = 0.5

    def choose(self, view: SequenceView, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1 or rng.random() >= self.greedy:
            return legal[rng.randrange(len(legal))]
        st = Sampler(view).sample(rng)
        team = st.rules.team_of[st.turn]
        best, best_i = -1.0, 0
        for i, a in enumerate(legal):
            if isinstance(a, (ExchangeDead, Discard)):
                continue
            gain = own_lines_gain(st, GAME.apply(st, st.turn, a), team)
            if gain > best:
                best, best_i = gain, i
        return legal[best_i]


class NormalPlayer:
    """One move ahead with the full evaluation (see the module docstring)."""

    level = "normal"
    weights = NORMAL

    def choose(self, view: SequenceView, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        sampler = Sampler(view)
        st = sampler.sample(rng)
        return legal[pick(scored_moves(st, st.turn, legal, context(sampler, self.weights)), rng)]


def settle(st: State) -> State:
    """Resolve a pending reshuffle inside a simulation (drawn from the sample's own seed)."""
    while st.phase == RESHUFFLE:
        st = GAME.apply_chance(st, GAME.chance_outcome(st))
    return st


def reply(st: State, rng: random.Random) -> State:
    """The seat to act's move by normal's evaluation, exchanging dead cards first."""
    for _ in range(4):
        seat = st.turn
        counts = [0] * len(B.CARDS)  # a sampled seat's unseen cards do not matter to normal
        ctx = Context(st.rules.team_of[seat], st.hands[seat], counts, NORMAL)
        legal = GAME.legal_actions(st, seat)
        scored = scored_moves(st, seat, legal, ctx)
        i = pick(scored, rng)
        after = next(s for _, j, s in scored if j == i)
        st = settle(after if after is not None else GAME.apply(st, seat, legal[i]))
        if st.phase != PLAY or st.turn != seat:
            return st
    return st


def critical(st: State) -> bool:
    """Whether some side is close to winning: a live winning line holds three or more."""
    to_win = st.rules.to_win
    for t, chips in enumerate(st.chips):
        seqs = st.seqs[t]
        if to_win and len(seqs) + 1 < to_win:
            continue
        own = chips | B.CORNER_MASK
        others = st.occ & ~chips
        for w in B.WINDOW_MASKS:
            if not w & others and (w & own).bit_count() >= 3 and not any(
                    (w & e).bit_count() > 1 for e in seqs):
                return True
    return False


class HardPlayer:
    """Card counting, jacks kept for what matters, and a lookahead where it is close."""

    level = "hard"
    weights = HARD
    candidates = 5
    deals = 6

    def choose(self, view: SequenceView, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        sampler = Sampler(view)
        st = sampler.sample(rng)
        seat = st.turn
        ctx = context(sampler, self.weights)
        scored = scored_moves(st, seat, legal, ctx)
        best = scored[0]
        if best[0] >= WIN or best[2] is None or not self.deals or not critical(st):
            return legal[pick(scored, rng)]
        shortlist = [x for x in scored[:self.candidates] if x[2] is not None]
        deals = [sampler.sample(rng) for _ in range(self.deals)]
        best_i, best_v = best[1], -float("inf")
        for value, i, _ in shortlist:
            total = 0.0
            for d in deals:
                after = settle(GAME.apply(d, seat, legal[i]))
                if after.phase == PLAY and after.rules.team_of[after.turn] != ctx.team:
                    after = reply(after, rng)
                total += terminal_value(after, ctx.team) if after.phase == OVER else 0.0
            v = value + total / len(deals)
            if v > best_v:
                best_i, best_v = i, v
        return legal[best_i]


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}
