"""The chance steps of the stock-and-discard games (Crazy Eights, Golf): a shuffled deck for a
deal, and the discards under the top card turned into a new stock when the stock runs out.

Pure: the generator comes from the caller (``engine.game.chance_rng``); never I/O, never the
global ``random``. Owns only the shuffle and the check of a reshuffle step, not when one is due.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from engine import errors
from engine.errors import IllegalAction


def shuffled(rng: random.Random, cards: Iterable[str]) -> tuple[str, ...]:
    deck = list(cards)
    rng.shuffle(deck)
    return tuple(deck)


def reshuffled(state: Any, outcome: Any, kind: type) -> Any:
    """``state`` after the reshuffle step ``outcome`` (an action of class ``kind`` whose
    ``cards`` are the discards under the top card, each once): they become the stock."""
    cards = getattr(outcome, "cards", None)
    if (not isinstance(outcome, kind) or not isinstance(cards, tuple)
            or Counter(cards) != Counter(state.discard[:-1])):
        raise IllegalAction(errors.BAD_CHANCE, "a reshuffle lists the discards under "
                                               "the top card, each once")
    return state._replace(chances=state.chances + 1, stock=cards, discard=state.discard[-1:])
