"""Pinned President deals and a small driver for scenario tests.

Hands are written by rank only ("3333 4 T2"; spaces ignore) and get suits in the order
clubs, diamonds, hearts, spades from what is left; seats not given get the remaining cards,
weakest first. ``deal_for`` turns the hands into the ``Deal`` that gives them (card k goes to
seat k % players), so every scenario goes through the real chance step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.match import Match
from engine.president import GAME
from engine.president.cards import CODES, RANK_CHARS, SUIT_CHARS
from engine.president.rules import Deal, GiveBack, Pass, Play
from engine.president.views import PresidentView


def sizes(players: int) -> list[int]:
    return [52 // players + (1 if s < 52 % players else 0) for s in range(players)]


def hands_from_ranks(players: int, spec: Mapping[int, str]) -> list[list[str]]:
    """Full hands for every seat: the given seats' ranks, the rest filled weakest first."""
    free = list(CODES)
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat, text in spec.items():
        for rank in text.replace(" ", ""):
            card = next(c for c in free if c[0] == rank)
            free.remove(card)
            hands[seat].append(card)
    want = sizes(players)
    for seat in range(players):
        if seat in spec:
            assert len(hands[seat]) == want[seat], f"seat {seat} needs {want[seat]} cards"
            continue
        hands[seat], free = free[: want[seat]], free[want[seat]:]
    assert not free
    return hands


def deal_for(hands: list[list[str]]) -> Deal:
    players = len(hands)
    queues = [list(h) for h in hands]
    return Deal(tuple(queues[k % players].pop(0) for k in range(52)))


def start(players: int, spec: Mapping[int, str], **options: Any) -> Match:
    """A match whose first deal gives these hands."""
    m = Match.start(GAME, players, options, seed=0, resolve=False)
    m.apply_chance(deal_for(hands_from_ranks(players, spec)))
    return m


def next_deal(m: Match, players: int, spec: Mapping[int, str]) -> None:
    assert GAME.between_hands(m.state)
    m.apply_chance(deal_for(hands_from_ranks(players, spec)))


def view(m: Match, seat: int | None) -> PresidentView:
    v = m.view(seat)
    assert isinstance(v, PresidentView)
    return v


def cards(m: Match, seat: int, ranks: str) -> Play:
    """The play of the weakest-suited cards of these ranks (``"77"``: two sevens) in the hand."""
    hand = view(m, seat).hand
    chosen: list[str] = []
    for r in ranks:
        chosen.append(next(c for c in hand if c[0] == r and c not in chosen))
    return Play(tuple(sorted(chosen, key=CODES.index)))


def play(m: Match, seat: int, ranks: str) -> Play:
    """Play the weakest-suited cards of these ranks from the seat's hand."""
    action = cards(m, seat, ranks)
    m.act(seat, action)
    return action


def pass_(m: Match, seat: int) -> None:
    m.act(seat, Pass())


def give_back(m: Match, seat: int, cards: str) -> GiveBack:
    action = GiveBack(tuple(sorted(cards.split(), key=CODES.index)))
    m.act(seat, action)
    return action


def rank_key(code: str) -> int:
    return RANK_CHARS.index(code[0]) * 4 + SUIT_CHARS.index(code[1])


def play_out(m: Match, *, avoid_fours: bool = False) -> list[int]:
    """Finish the round: each seat plays its first legal play, else passes (and, if asked,
    passes rather than play four of a kind unless it leads).

    Returns the seats in the order their hands became empty, watched from the views."""
    emptied: list[int] = []
    while m.to_act() and view(m, None).phase == "play":
        seat = m.to_act()[0]
        legal = m.legal(seat)
        plays = [a for a in legal if isinstance(a, Play)]
        if avoid_fours and len(plays) < len(legal):
            plays = [a for a in plays if len(a.cards) < 4]
        m.act(seat, plays[0] if plays else legal[-1])
        counts = view(m, None).hand_counts
        emptied.extend(s for s in range(m.players) if counts[s] == 0 and s not in emptied)
    return emptied
