"""President's computer players: random, easy, normal and hard.

Each player is a pure function of the seat's view, the legal actions and a generator the
host seeds: it never sees the state. It reads the view into rank counts (``Table``): its own
hand, every card played this round, every hand's size, the trick, and what its exchange
taught it (the cards it gave are in the partner's hand until played; a President knows the
Scum kept nothing stronger than the weaker of the two cards it had to hand over).

- easy: the lowest legal combination (``policy.easy``); gives back its two weakest cards.
- normal: ``policy.normal`` (keeps 2s and fours of a kind to win the lead back, plays whole
  groups and breaks one only when no whole group can follow); gives back cheap singles
  rather than breaking groups.
- hard: flat Monte Carlo over determinizations. The unseen cards are dealt to the other
  hands consistently with the view; each distinct (rank, count) choice is played out to the
  end of the round with ``policy.normal`` for everyone, on the same deals for every choice;
  the choice with the best mean finishing place wins. The work is a fixed number of
  rollouts (never the clock), so a decision is reproducible from its generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.ai import RandomPlayer
from engine.president.cards import CODES, NRANKS, RANK_CHARS, TWO
from engine.president.policy import Choice, Counts, Policy, easy, normal, simulate
from engine.president.rules import PASS, PLAY_INFO, GiveBack, Play
from engine.president.views import PresidentView

RANK_OF = {ch: r for r, ch in enumerate(RANK_CHARS)}
_RECEIVERS = ("president", "vice_president")


class Table(NamedTuple):
    """A view as counts: everything a player decides from."""

    me: int
    hand: Counts
    unseen: Counts  # per rank: cards neither in my hand nor played this round
    held: list[int]  # hand sizes by seat
    top: int  # the rank to beat (when size > 0)
    size: int  # cards per play in this trick; 0 when leading
    last: int  # who made the top play
    passed: int  # seat mask
    out: int  # seat mask of players who have finished this round
    finished: int
    rev: bool
    revolution: bool
    located: dict[int, Counts]  # cards I know another seat holds, by rank
    cap: dict[int, int]  # seat -> the strongest rank (normal order) its other cards can be


def rank_counts(codes: Sequence[str]) -> Counts:
    out = [0] * NRANKS
    for c in codes:
        out[RANK_OF[c[0]]] += 1
    return out


def read(view: PresidentView) -> Table:
    me = view.seat
    assert me is not None, "a player has a seat"
    hand = rank_counts(view.hand)
    played = rank_counts(view.played)
    unseen = [4 - h - p for h, p in zip(hand, played, strict=True)]
    located: dict[int, Counts] = {}
    cap: dict[int, int] = {}
    ex = view.exchange
    if ex is not None:
        gone = set(view.played) | set(view.hand)
        still = [c for c in ex.gave if c not in gone]
        if still:
            located[ex.partner] = rank_counts(still)
        my_title = next((p.title for p in view.previous_places if p.seat == me), "")
        if my_title in _RECEIVERS and ex.received:
            # The giver handed over its best cards: its own others are no stronger.
            cap[ex.partner] = min(RANK_OF[c[0]] for c in ex.received)
    if view.trick:
        top_play = view.trick[-1]
        top, size, last = RANK_OF[top_play.cards[0][0]], len(top_play.cards), top_play.seat
    else:
        top, size, last = 0, 0, me
    passed = 0
    for s in view.passed:
        passed |= 1 << s
    out = 0
    for p in view.places:
        out |= 1 << p.seat
    return Table(me, hand, unseen, list(view.hand_counts), top, size, last, passed, out,
                 len(view.places), view.reversed, view.revolution_enabled, located, cap)


def to_action(legal: Sequence[Any], choice: Choice) -> Any:
    """The legal action for a (rank, size) choice (the weakest suits), or the pass."""
    if choice is None:
        return PASS if PASS in legal else legal[0]
    r, k = choice
    for a in legal:
        if isinstance(a, Play):
            info = PLAY_INFO[a]
            if info.rank == r and info.size == k:
                return a
    return legal[0]  # not reached for a policy that only picks what the hand allows


def choices(legal: Sequence[Any]) -> list[Choice]:
    """The distinct (rank, size) choices of ``legal`` (suits never matter), then the pass."""
    seen: dict[tuple[int, int], None] = {}
    has_pass = False
    for a in legal:
        if isinstance(a, Play):
            info = PLAY_INFO[a]
            seen[info.rank, info.size] = None
        else:
            has_pass = True
    out: list[Choice] = list(seen)
    if has_pass:
        out.append(None)
    return out


# -- the exchange ---------------------------------------------------------------------------
def weakest_give(view: PresidentView, legal: Sequence[Any]) -> Any:
    """The first give-back offered: the weakest cards."""
    return legal[0]


def thoughtful_give(view: PresidentView, legal: Sequence[Any]) -> Any:
    """Give back weak cards, preferring odd singles (a group fewer to play) to breaking
    pairs; never 2s or fours unless nothing else is left."""
    count = len(legal[0].cards)
    hand = list(view.hand)
    counts = rank_counts(hand)
    chosen: list[str] = []
    for _ in range(count):
        def cost(code: str) -> tuple[int, int]:
            r = RANK_OF[code[0]]
            keep = 100 if (r == TWO or counts[r] == 4) else 0
            return keep + r + 5 * (counts[r] - 1), CODES.index(code)
        pick = min((c for c in hand if c not in chosen), key=cost)
        chosen.append(pick)
        counts[RANK_OF[pick[0]]] -= 1
    action = GiveBack(tuple(sorted(chosen, key=CODES.index)))
    return action if action in legal else legal[0]


# -- players --------------------------------------------------------------------------------
class _Player:
    """What every level does alike: take a forced action, and give back by ``give``."""

    level = ""

    def __init__(self, give: Any) -> None:
        self.give = give

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], GiveBack):
            return self.give(view, legal)
        return self.play(read(view), legal, rng)

    def play(self, t: Table, legal: Sequence[Any], rng: random.Random) -> Any:
        raise NotImplementedError


class PolicyPlayer(_Player):
    """A player that follows one rank-count policy and one give-back rule."""

    def __init__(self, level: str, policy: Policy, give: Any) -> None:
        super().__init__(give)
        self.level = level
        self.policy = policy

    def play(self, t: Table, legal: Sequence[Any], rng: random.Random) -> Any:
        return to_action(legal, self.policy(t.hand, t.top, t.size, t.rev, t.held[t.me]))


def determinize(t: Table, rng: random.Random) -> list[Counts]:
    """Every hand as rank counts: mine as it is, the others dealt from the unseen cards so
    that sizes, known cards and the exchange cap hold."""
    n = len(t.held)
    hands = [[0] * NRANKS for _ in range(n)]
    hands[t.me] = t.hand[:]
    pool: list[int] = []
    for r in range(NRANKS):
        free = t.unseen[r] - sum(loc[r] for loc in t.located.values())
        pool.extend([r] * free)
    rng.shuffle(pool)
    need = {}
    for s in range(n):
        if s != t.me and t.held[s]:
            known = t.located.get(s)
            if known is not None:
                for r in range(NRANKS):
                    hands[s][r] += known[r]
            need[s] = t.held[s] - (sum(known) if known is not None else 0)
    for s, limit in t.cap.items():  # capped seats first, from the cards they can hold
        if need.get(s, 0) <= 0:
            continue
        fits = [i for i, r in enumerate(pool) if r <= limit]
        taken = set(fits[: need[s]])
        for i in taken:
            hands[s][pool[i]] += 1
        pool = [r for i, r in enumerate(pool) if i not in taken]
        need[s] = 0
    i = 0
    for s, k in need.items():
        for r in pool[i : i + k]:
            hands[s][r] += 1
        i += k
    return hands


class HardPlayer(_Player):
    """Flat Monte Carlo over determinizations; ``rollouts`` bounds the work per decision."""

    level = "hard"

    def __init__(self, rollouts: int = 360, min_worlds: int = 8, max_worlds: int = 48) -> None:
        super().__init__(thoughtful_give)
        self.rollouts = rollouts
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def play(self, t: Table, legal: Sequence[Any], rng: random.Random) -> Any:
        options = choices(legal)
        mine = t.held[t.me]
        for c in options:
            if c is not None and c[1] == mine:
                return to_action(legal, c)  # going out now is never worse
        if len(options) == 1:
            return to_action(legal, options[0])
        return to_action(legal, self.search(t, options, rng))

    def search(self, t: Table, options: list[Choice], rng: random.Random) -> Choice:
        worlds = max(self.min_worlds, min(self.max_worlds, self.rollouts // len(options)))
        policies: list[Policy] = [normal] * len(t.held)
        totals = [0] * len(options)
        for _ in range(worlds):
            deal = determinize(t, rng)
            for i, c in enumerate(options):
                totals[i] += simulate([h[:] for h in deal], t.held[:], t.me, t.me, c, t.top,
                                      t.size, t.last, t.passed, t.out, t.rev, t.revolution,
                                      t.finished, policies)
        best = min(totals)
        tied = [c for c, total in zip(options, totals, strict=True) if total == best]
        preferred = normal(t.hand, t.top, t.size, t.rev, t.held[t.me])
        return preferred if preferred in tied else tied[0]


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": PolicyPlayer("easy", easy, weakest_give),
    "normal": PolicyPlayer("normal", normal, thoughtful_give),
    "hard": HardPlayer(),
}
