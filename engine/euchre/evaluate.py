"""Hand evaluation for Euchre's computer players: how many tricks a hand is worth with a trump.

``hand_strength`` is the normal player's bidding measure and the sampler's test of whether a
dealt hand fits the bidding (a seat that passed rarely held a strong hand). Pure arithmetic on
card masks; it must never look at a state or a view.
"""

from __future__ import annotations

from engine.euchre.tables import BIT, ESUIT, STRENGTH, SUIT_MASK, SUIT_OF, cards_of

# Trump values by STRENGTH - 20 (7 8 9 T Q K A, -, left, right); an estimate of trick-taking.
TRUMP_VALUE = (1.1, 1.2, 1.3, 1.4, 1.6, 1.8, 2.2, 0.0, 2.7, 3.1)


def trumps_in(hand: int, trump: int) -> int:
    return (hand & SUIT_MASK[trump][trump]).bit_count()


def hand_strength(hand: int, trump: int) -> float:
    """A rough count of the tricks ``hand`` takes with ``trump``, scaled so 7 is a fair call."""
    total = 0.0
    strength = STRENGTH[trump]
    esuit = ESUIT[trump]
    trumps = trumps_in(hand, trump)
    for c in cards_of(hand):
        if esuit[c] == trump:
            total += TRUMP_VALUE[strength[c] - 20]
        else:
            rank = strength[c]
            if rank == 7:  # an ace
                total += 1.0
            elif rank == 6 and hand & BIT[SUIT_OF[c] * 8 + 7]:  # a king behind its ace
                total += 0.5
            elif rank == 6:
                total += 0.25
    if trumps >= 2:
        for s in range(4):
            if s != trump and not hand & SUIT_MASK[trump][s]:
                total += 0.5
    return total


def best_discard(hand: int, trump: int) -> int:
    """The card a dealer holding six buries: the cheapest plain card, making a void if it can,
    never an ace or a trump while something else will do."""
    esuit = ESUIT[trump]
    strength = STRENGTH[trump]

    def cost(c: int) -> float:
        if esuit[c] == trump:
            return 100.0 + strength[c]
        suit_cards = (hand & SUIT_MASK[trump][esuit[c]]).bit_count()
        value = float(strength[c])
        if strength[c] == 7:
            value += 10.0  # keep aces
        if suit_cards == 1:
            value -= 3.0  # burying a singleton makes a void
        return value

    return min(cards_of(hand), key=cost)


def with_turned(hand: int, turned: int, trump: int) -> int:
    """The dealer's hand after taking the turned card and burying the best discard."""
    six = hand | BIT[turned]
    return six & ~BIT[best_discard(six, trump)]
