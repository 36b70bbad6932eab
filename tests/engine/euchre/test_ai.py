"""Euchre's computer players: legal, deterministic, consistent with the view, and sensible.

Strength is measured by self-play (docs/ai.md), not here; these tests pin behaviour that a
player at a level must show, from pinned deals.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.euchre import GAME, PLAYERS
from engine.euchre.ai import HardPlayer, NormalPlayer, best_discard, hand_strength
from engine.euchre.knowledge import Knowledge, sample_hands
from engine.euchre.rules import NameTrump, OrderUp, Pass, Play
from engine.euchre.search import NEXT_ACTIVE, Solver
from engine.euchre.tables import CARD, DECK_CARDS, ESUIT, POWER, SUIT_MASK, cards_of
from engine.match import Match
from tests.engine.euchre.scenario import LAYOUT_A, LAYOUT_C, act, start, state, view
from tests.engine.euchre.test_rules import order_up

# A cheap hard player: same code, a smaller budget, so the tests stay quick.
QUICK_HARD = HardPlayer(play_samples=6, play_nodes=4_000, bid_samples=4, bid_nodes=4_000)


def mask(codes: str) -> int:
    return sum(1 << CARD[c] for c in codes.split())


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_every_level_plays_whole_legal_games(level: str) -> None:
    player = PLAYERS[level]
    for seed in range(5):
        m = Match.start(GAME, 4, {"defend_alone": True, "stick_the_dealer": seed % 2 == 0},
                        seed=seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            if not m.to_act():
                m.resolve_chance()
                continue
            seat = m.to_act()[0]
            legal = m.legal(seat)
            action = player.choose(m.view(seat), legal, rng)
            assert action in legal
            m.act(seat, action)


def test_the_hard_player_is_legal_and_reproducible() -> None:
    m = Match.start(GAME, 4, {"deck": "32", "defend_alone": True}, seed=3)
    rng = random.Random(0)
    decisions = 0
    while m.outcome() is None and decisions < 60:
        if not m.to_act():
            m.resolve_chance()
            continue
        seat = m.to_act()[0]
        legal = m.legal(seat)
        a = QUICK_HARD.choose(m.view(seat), legal, random.Random(decisions))
        assert a in legal
        assert QUICK_HARD.choose(m.view(seat), legal, random.Random(decisions)) == a
        m.act(seat, legal[rng.randrange(len(legal))] if seat % 2 else a)
        decisions += 1
    assert decisions == 60


def test_samples_keep_what_the_seat_knows() -> None:
    m = start(3, LAYOUT_A)
    order_up(m, 0, bury="QS")  # the dealer keeps the 9H: everyone saw it taken
    m.act(0, Play("9S"))
    m.act(1, Play("AS"))
    m.act(2, Play("9C"))  # seat 2 shows out of spades
    k = Knowledge.of(view(m, 0))
    assert k.voids[2] == 1 << 0 and k.fixed[3] == 1 << CARD["9H"]
    rng = random.Random(1)
    for _ in range(200):
        hands = sample_hands(k, rng)
        assert hands[0] == state(m).hands[0]
        assert hands[3] >> CARD["9H"] & 1
        assert not hands[2] & SUIT_MASK[k.trump][0]  # no spade for the seat void in spades
        assert [h.bit_count() for h in hands] == list(view(m, None).hand_counts)
        assert not (hands[1] | hands[2] | hands[3]) & (k.played | k.hand)
    # Seat 0 cannot know where the QS went (it was buried); the dealer knows.
    assert k.unknown & mask("QS")
    assert Knowledge.of(view(m, 3)).unknown & mask("QS") == 0


def brute(hands: list[int], leader: int, trump: int, out: int,
          trick: tuple[tuple[int, int], ...] = ()) -> int:
    nxt = NEXT_ACTIVE[out]
    active = 4 - bin(out).count("1")
    if not trick and hands[leader] == 0:
        return 0
    seat = nxt[trick[-1][0]] if trick else leader
    h = hands[seat]
    cand = h
    if trick:
        cand = h & SUIT_MASK[trump][ESUIT[trump][trick[0][1]]] or h
    values = []
    for c in cards_of(cand):
        nh = list(hands)
        nh[seat] &= ~(1 << c)
        nt = (*trick, (seat, c))
        if len(nt) == active:
            led = ESUIT[trump][nt[0][1]]
            winner = max(nt, key=lambda p: POWER[trump][led][p[1]])[0]
            values.append(int(winner % 2 == 0) + brute(nh, winner, trump, out))
        else:
            values.append(brute(nh, leader, trump, out, nt))
    return max(values) if seat % 2 == 0 else min(values)


def test_double_dummy_search_agrees_with_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(120):
        deck = list(DECK_CARDS[rng.choice([24, 32])])
        rng.shuffle(deck)
        n = rng.choice([1, 2, 3])
        out = rng.choice([0, 0, 1, 2, 8, 1 | 2])
        hands = [0 if out >> s & 1 else sum(1 << c for c in deck[5 * s:5 * s + n])
                 for s in range(4)]
        trump = rng.randrange(4)
        leader = next(s for s in range(4) if not out >> s & 1)
        expected = brute(hands, leader, trump, out)
        solver = Solver(trump, out)
        h4 = (hands[0], hands[1], hands[2], hands[3])
        assert solver.value(h4, leader) == expected
        for x in range(n + 1):  # null windows answer "at least x?" correctly
            assert (solver.window(h4, leader, x - 1, x) >= x) == (expected >= x)


def test_hand_strength_and_discard() -> None:
    hearts = 1
    assert hand_strength(mask("JH JD AH KH QH"), hearts) > 12
    assert hand_strength(mask("9S TS 9C TC 9D"), hearts) < 1
    # The dealer buries a singleton plain card, never a trump or an ace while it can help it.
    assert best_discard(mask("JH AH 9H AS KC 9D"), hearts) in {CARD["9D"], CARD["KC"]}
    assert best_discard(mask("JH AH 9H TH KH 9C"), hearts) == CARD["9C"]


@pytest.mark.parametrize("player", [NormalPlayer(), QUICK_HARD], ids=["normal", "hard"])
def test_a_certain_march_goes_alone_and_a_hopeless_hand_passes(player: object) -> None:
    m = start(3, LAYOUT_C)
    v = view(m, 0)
    assert player.choose(v, m.legal(0), random.Random(0)) == OrderUp(True)  # type: ignore[attr-defined]
    m = start(3, LAYOUT_A)
    act(m, 0, Pass())
    act(m, 1, Pass())
    assert player.choose(view(m, 2), m.legal(2), random.Random(0)) == Pass()  # type: ignore[attr-defined]


def test_normal_does_not_trump_its_partners_winning_trick() -> None:
    # Hearts trump, made by seat 0. Seat 1's ace of spades is winning when seat 3, its
    # partner, void in spades and holding trumps, must play: it throws a low club instead.
    hands = {0: "9S JH JD AH KH", 1: "AS 9D TD QD KD", 2: "TS QS KS 9C TC",
             3: "QH TH AD QC KC"}
    m = start(3, hands, "9H")
    order_up(m, 0)
    m.act(0, Play("9S"))
    m.act(1, Play("AS"))
    m.act(2, Play("TS"))
    assert len(m.legal(3)) == 5
    assert NormalPlayer().choose(view(m, 3), m.legal(3), random.Random(0)) == Play("QC")


def test_normal_leads_trump_as_the_maker() -> None:
    m = start(3, LAYOUT_A)
    order_up(m, 0)
    got = NormalPlayer().choose(view(m, 0), m.legal(0), random.Random(0))
    assert got == Play("JH")  # the right bower, a certain winner


def test_hard_takes_the_sure_tricks_when_every_card_is_known() -> None:
    m = start(3, LAYOUT_A)
    order_up(m, 0)
    got = QUICK_HARD.choose(view(m, 0), m.legal(0), random.Random(0))
    assert got in (Play("JH"), Play("JD"), Play("AH"))


def test_players_see_only_the_view() -> None:
    # A view with the hidden hands resampled gives the same decisions: the players could not
    # have used anything else.
    m = start(3, LAYOUT_A)
    order_up(m, 0)
    s = state(m)
    for player in (PLAYERS["easy"], PLAYERS["normal"], QUICK_HARD):
        a = player.choose(GAME.view(s, 0), m.legal(0), random.Random(5))
        other = GAME.resample_hidden(s, 0, random.Random(9))
        assert player.choose(GAME.view(other, 0), GAME.legal_actions(other, 0),
                             random.Random(5)) == a
    assert NameTrump("S") not in m.legal(0)


def test_decisions_do_not_depend_on_the_process() -> None:
    # String hashing changes from one interpreter to the next: nothing a player decides may
    # depend on set or dict order of strings. Two processes, two hash seeds, the same games.
    code = (
        "import json, hashlib\n"
        "from engine.selfplay import play\n"
        "rs = [play('euchre', 4, None, ['normal', 'easy'], s).record for s in range(4)]\n"
        "print(hashlib.sha256(json.dumps(rs, sort_keys=True).encode()).hexdigest())\n"
    )
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True, cwd=Path(__file__).resolve().parents[3])
        digests.add(out.stdout.strip())
    assert len(digests) == 1
