"""Double-dummy search for Euchre: with every hand known, how many tricks can a side take?

``Solver`` plays out the rest of a hand with all four hands face up, each side taking as many
tricks as it can: alpha-beta over trick counts, a transposition table at trick boundaries (a
position is the four hands and the leader), and cards of touching rank in one hand tried once
(nothing live lies between them, so either plays the same). It counts ``nodes`` so callers can
budget work by count, never by the clock.

This is a tool for computer players on determinized deals; it knows nothing of views and must
never be given a real game's hidden cards.
"""

from __future__ import annotations

from engine.euchre.tables import ESUIT, POWER, STRENGTH, SUIT_MASK


# ORDER[trump][suit]: the cards of an effective suit, strongest first.
def _order(trump: int, suit: int) -> tuple[int, ...]:
    cards = [c for c in range(32) if ESUIT[trump][c] == suit]
    return tuple(sorted(cards, key=lambda c: -STRENGTH[trump][c]))


ORDER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_order(t, s) for s in range(4)) for t in range(5)
)

# HIGHER[trump][card]: the stronger cards of the card's effective suit, nearest first.
HIGHER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(reversed(ORDER[t][ESUIT[t][c]][:ORDER[t][ESUIT[t][c]].index(c)]))
        for c in range(32)
    )
    for t in range(5)
)

# NEXT_ACTIVE[out][seat]: the next seat clockwise that plays (``out``: a mask of seats sitting out).
NEXT_ACTIVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        next(((s + k) % 4 for k in range(1, 5) if not out >> ((s + k) % 4) & 1), s)
        for s in range(4)
    )
    for out in range(16)
)


M32 = 0xFFFFFFFF


def pack(hands: tuple[int, int, int, int]) -> int:
    """Four 32-bit hand masks in one int (seat ``s`` in bits 32s..32s+31): one cheap value to
    copy, change and hash."""
    return hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96


def _union(packed: int) -> int:
    u = packed | packed >> 64
    return (u | u >> 32) & M32


class Solver:
    """Double-dummy trick counts for side 0 (seats 0 and 2) under one trump and sitting-out set.

    Hands of seats that sit out must be empty. Values count tricks still to be won, including
    the trick in progress.
    """

    def __init__(self, trump: int, out: int = 0) -> None:
        self.trump = trump
        self.out = out
        self.next = NEXT_ACTIVE[out]
        self.active = 4 - bin(out).count("1")
        self.power = POWER[trump]
        self.suit_mask = SUIT_MASK[trump]
        self.esuit = ESUIT[trump]
        self.order = ORDER[trump]
        self.strength = STRENGTH[trump]
        self.higher = HIGHER[trump]
        self.memo: dict[int, tuple[int, int]] = {}
        self.nodes = 0

    # -- public ---------------------------------------------------------------------------------
    def value(self, hands: tuple[int, int, int, int], leader: int,
              trick: tuple[tuple[int, int], ...] = ()) -> int:
        """Side 0's tricks from here under best play by both sides; ``trick`` is the trick in
        progress as (seat, card) pairs in play order."""
        return self._from(pack(hands), leader, trick, -1, 99)

    def window(self, hands: tuple[int, int, int, int], leader: int, alpha: int, beta: int) -> int:
        """Side 0's tricks from a trick boundary, searched in (alpha, beta), fail-soft."""
        return self._tricks(pack(hands), leader, alpha, beta)

    def move_values(self, hands: tuple[int, int, int, int], leader: int,
                    trick: tuple[tuple[int, int], ...], seat: int, moves: list[int]) -> list[int]:
        """Side 0's tricks after ``seat`` plays each of ``moves`` (exact values)."""
        return [self.after(hands, leader, trick, seat, c, -1, 99) for c in moves]

    def after(self, hands: tuple[int, int, int, int], leader: int,
              trick: tuple[tuple[int, int], ...], seat: int, card: int, alpha: int,
              beta: int) -> int:
        """Side 0's tricks after ``seat`` plays ``card``, searched in the window (alpha, beta):
        exact inside it, else a bound on the side it fell (fail-soft). A null window
        (x - 1, x) answers "at least x?" for a fraction of the cost of an exact value."""
        packed = pack(hands) & ~(1 << (card + 32 * seat))
        nt = (*trick, (seat, card))
        if len(nt) == self.active:
            w, winner = self._winner(nt)
            return w + self._tricks(packed, winner, alpha - w, beta - w)
        return self._from(packed, leader, nt, alpha, beta)

    # -- internals ------------------------------------------------------------------------------
    def _winner(self, trick: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        led = self.esuit[trick[0][1]]
        power = self.power[led]
        best_seat, best = trick[0][0], -1
        for seat, c in trick:
            if power[c] > best:
                best, best_seat = power[c], seat
        return (1 if best_seat % 2 == 0 else 0), best_seat

    def _from(self, packed: int, leader: int, trick: tuple[tuple[int, int], ...], alpha: int,
              beta: int) -> int:
        if not trick:
            return self._tricks(packed, leader, alpha, beta)
        led = self.esuit[trick[0][1]]
        power = self.power[led]
        best_seat, best = trick[0][0], -1
        live = _union(packed)
        for seat, c in trick:
            live |= 1 << c
            if power[c] > best:
                best, best_seat = power[c], seat
        seat = self.next[trick[-1][0]]
        return self._play(packed, seat, len(trick), led, best, best_seat, live, alpha, beta)

    def _tricks(self, packed: int, leader: int, alpha: int, beta: int) -> int:
        n = ((packed >> (32 * leader)) & M32).bit_count()
        if n <= 1:
            if n == 0:
                return 0
            # The last trick plays itself.
            c = ((packed >> (32 * leader)) & M32).bit_length() - 1
            pl = self.power[self.esuit[c]]
            best, winner = pl[c], leader
            seat = self.next[leader]
            while seat != leader:
                p = pl[((packed >> (32 * seat)) & M32).bit_length() - 1]
                if p > best:
                    best, winner = p, seat
                seat = self.next[seat]
            return 1 if winner % 2 == 0 else 0
        key = packed | leader << 128
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            lo, hi = got
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = 0, n
        a0, b0 = alpha, beta
        v = self._play(packed, leader, 0, -1, -1, -1, _union(packed), alpha, beta)
        if v <= a0:
            hi = v
        elif v >= b0:
            lo = v
        else:
            lo = hi = v
        memo[key] = (lo, hi)
        return v

    def _play(self, packed: int, seat: int, k: int, led: int, best: int, best_seat: int,
              live: int, alpha: int, beta: int) -> int:
        """Seat ``seat`` plays the ``k``-th card of the trick. ``live`` holds the cards in
        hands and in this trick (it does not change within a trick)."""
        self.nodes += 1
        shift = 32 * seat
        h = (packed >> shift) & M32
        if k == 0:
            cand = h
        else:
            follow = h & self.suit_mask[led]
            cand = follow or h
        # One card per run of touching cards: nothing live lies between them, so they play
        # the same.
        higher = self.higher
        moves = []
        m = cand
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            for d in higher[c]:
                if live >> d & 1:
                    if not cand >> d & 1:
                        moves.append(c)
                    break
            else:
                moves.append(c)
        power = self.power
        strength = self.strength
        if len(moves) > 1:
            if k == 0:
                moves.sort(key=strength.__getitem__, reverse=True)
            elif best_seat % 2 == seat % 2:
                moves.sort(key=strength.__getitem__)  # partner winning: throw the cheapest
            else:
                pl = power[led]
                # The cheapest winner first, then the cheapest losers.
                moves.sort(key=lambda c: (pl[c] <= best, strength[c]))
        maximizing = seat % 2 == 0
        last = k + 1 == self.active
        nxt = self.next[seat]
        result = -1 if maximizing else 99
        for c in moves:
            np = packed & ~(1 << (c + shift))
            if k == 0:
                nled = self.esuit[c]
                nb, ns = power[nled][c], seat
            else:
                nled = led
                p = power[led][c]
                if p > best:
                    nb, ns = p, seat
                else:
                    nb, ns = best, best_seat
            if last:
                w = 1 if ns % 2 == 0 else 0
                v = w + self._tricks(np, ns, alpha - w, beta - w)
            else:
                v = self._play(np, nxt, k + 1, nled, nb, ns, live, alpha, beta)
            if maximizing:
                if v > result:
                    result = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < result:
                result = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return result
