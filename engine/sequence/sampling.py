"""Sequence determinization: a full state consistent with one seat's view.

A computer player sees only its view. To search, it needs whole states: this module deals
the cards the seat cannot see (every copy not in its hand and not in the discard pile) to the
other hands and the draw pile at random, keeping every count the view shows. It reads nothing
but the view, so whatever a search finds is something the seat could have worked out.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.sequence import board as B
from engine.sequence.data import SequenceView
from engine.sequence.options import Rules, hand_size
from engine.sequence.state import FULL_DECK, PLAY, State, new_state, tables_for


def rules_of(view: SequenceView) -> Rules:
    r = view.rules
    return Rules(
        players=view.players, teams=max(view.teams) + 1, team_of=view.teams,
        hand_size=hand_size(view.players), to_win=r.sequences_to_win, random_board=False,
        dead_card=r.dead_card, fill_board=r.fill_board, reshuffle=r.reshuffle,
        doubles=r.doubles, captures=r.captures)


def unseen_cards(view: SequenceView) -> list[int]:
    """Every card the seat cannot place: not in its hand, not in the discard pile."""
    left = Counter(FULL_DECK)
    left.subtract(B.CARD_INDEX[c.card] for c in view.hand)
    left.subtract(B.CARD_INDEX[c] for c in view.discards)
    return sorted(left.elements())


class Sampler:
    """Reads one view once; ``sample`` then deals its hidden cards anew each time."""

    def __init__(self, view: SequenceView) -> None:
        if view.seat is None or view.turn is None:
            raise ValueError("a determinization needs a seat's view during play")
        self.view = view
        self.rules = rules_of(view)
        self.tables = tables_for(B.layout_from_rows(view.layout))
        chips = [0] * self.rules.teams
        for r, row in enumerate(view.chips):
            for c, team in enumerate(row):
                if team >= 0:
                    chips[team] |= 1 << (r * B.SIZE + c)
        self.chips = tuple(chips)
        self.occ = sum(chips)
        seqs: list[list[int]] = [[] for _ in range(self.rules.teams)]
        for line in view.sequences:
            seqs[line.team].append(sum(1 << (r * B.SIZE + c) for r, c in line.squares))
        self.seqs = tuple(tuple(s) for s in seqs)
        self.locked = sum(1 << (r * B.SIZE + c) for r, c in view.locked)
        self.hand = tuple(sorted(B.CARD_INDEX[c.card] for c in view.hand))
        self.discards = tuple(B.CARD_INDEX[c] for c in view.discards)
        self.unseen = unseen_cards(view)
        self.last = None
        if view.last is not None:
            lm = view.last
            self.last = (lm.seat, lm.type, B.CARD_INDEX[lm.card],
                         tuple(r * B.SIZE + c for r, c in lm.squares),
                         tuple(r * B.SIZE + c for r, c in lm.captured), lm.new_sequences)
        others = sum(n for s, n in enumerate(view.hand_counts) if s != view.seat)
        if others + view.draw_pile != len(self.unseen):
            raise ValueError("the view's counts do not add up")

    def sample(self, rng: random.Random) -> State:
        v = self.view
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[tuple[int, ...]] = []
        k = 0
        for seat, n in enumerate(v.hand_counts):
            if seat == v.seat:
                hands.append(self.hand)
            else:
                hands.append(tuple(sorted(pool[k:k + n])))
                k += n
        st = new_state(self.rules, rng.getrandbits(62))
        st.phase = PLAY
        st.tables = self.tables
        st.chips = self.chips
        st.occ = self.occ
        st.locked = self.locked
        st.seqs = self.seqs
        st.hands = tuple(hands)
        st.deck = tuple(pool[k:])
        st.discards = self.discards
        assert v.turn is not None
        st.turn = v.turn
        st.exchanged = v.exchanged
        st.captures = v.captures
        st.last = self.last
        return st
