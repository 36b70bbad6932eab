"""President's computer players: legal, reproducible, view-only, and as the docs describe."""

from __future__ import annotations

import random

import pytest

from engine.match import Match
from engine.president import GAME, PLAYERS
from engine.president.ai import determinize, rank_counts, read, thoughtful_give
from engine.president.cards import RANK_CHARS
from engine.president.policy import normal, simulate
from engine.president.rules import PLAY, GiveBack, Pass, Play, State
from engine.selfplay import play as selfplay
from tests.engine.president.scenario import give_back, next_deal, play, play_out, start, view


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_level_plays_whole_series_legally(players: int) -> None:
    levels = ["hard", "normal", "easy", "random", "normal", "easy"][:players]
    for seed in range(2):
        result = selfplay("president", players, {"rounds": 3}, levels, seed)
        assert result.outcome is not None  # Match.act refuses anything illegal


def test_the_simulator_plays_the_rules_of_the_engine() -> None:
    """At every turn of a game where all play ``normal``, the rollout from the true hands
    predicts exactly the place the engine gives that seat."""
    player = PLAYERS["normal"]
    for seed in range(12):
        m = Match.start(GAME, 3 + seed % 4, {"revolution": seed % 3 != 0}, seed)
        predictions: list[tuple[int, int]] = []
        while m.outcome() is None:
            seat = m.to_act()[0]
            v = view(m, seat)
            t = read(v)
            state: State = m.state
            hands = [rank_counts(view(m, s).hand) for s in range(m.players)]
            first = normal(t.hand, t.top, t.size, t.rev, t.held[seat])
            predictions.append((seat, simulate(
                hands, list(t.held), seat, seat, first, t.top, t.size, t.last, t.passed, t.out,
                t.rev, t.revolution, t.finished, [normal] * m.players)))
            assert state.phase == PLAY
            m.act(seat, player.choose(v, m.legal(seat), random.Random(0)))
        places = list(m.state.places)
        assert predictions and all(places.index(s) == p for s, p in predictions)


def test_determinization_keeps_what_the_view_shows() -> None:
    m = start(4, {}, rounds=2)
    play_out(m)
    next_deal(m, 4, {})
    president = view(m, None).previous_places[0].seat
    scum = view(m, None).previous_places[-1].seat
    for seat in m.to_act():  # give back cards other than those received
        ex = view(m, seat).exchange
        assert ex is not None
        own = [c for c in view(m, seat).hand if c not in ex.received]
        give_back(m, seat, " ".join(own[: ex.to_give]))
    for seat in (president, scum):
        t = read(view(m, seat))
        partner = scum if seat == president else president
        assert sum(t.located[partner]) == 2  # the two cards it gave are in the partner's hand
        if seat == president:
            received = view(m, seat).exchange.received  # type: ignore[union-attr]
            assert t.cap[partner] == min(RANK_CHARS.index(c[0]) for c in received)
        rng = random.Random(seat)
        for _ in range(30):
            hands = determinize(t, rng)
            assert hands[seat] == t.hand
            assert [sum(h) for h in hands] == t.held
            assert all(hands[partner][r] >= t.located[partner][r] for r in range(13))
            for r in range(13):
                assert sum(h[r] for s, h in enumerate(hands) if s != seat) == t.unseen[r]
            if seat == president:
                extra = [r for r in range(13) if hands[partner][r] > t.located[partner][r]]
                assert max(extra) <= t.cap[partner]


def test_hard_is_reproducible_from_its_generator() -> None:
    m = Match.start(GAME, 4, {}, 11)
    hard = PLAYERS["hard"]
    for _ in range(20):
        seat = m.to_act()[0]
        v, legal = m.view(seat), m.legal(seat)
        a = hard.choose(v, legal, random.Random(5))
        assert a == hard.choose(v, legal, random.Random(5)) and a in legal
        m.act(seat, a)


def test_easy_plays_the_lowest_combination() -> None:
    m = start(4, {0: "55 8 9 T J Q K A 2 33 4", 1: "66 77 99 TT JJ QQ 3"})
    easy = PLAYERS["easy"]
    assert easy.choose(view(m, 0), m.legal(0), random.Random(0)) == Play(("3C", "3D"))
    play(m, 0, "4")
    assert easy.choose(view(m, 1), m.legal(1), random.Random(0)).cards[0][0] == "6"


def test_normal_keeps_2s_and_whole_groups() -> None:
    m = start(4, {0: "33 5 6 8 9 J Q K A 2 44", 1: "2 77 99 JJ QQ KK T A",
                  2: "88 TT AA 2 33 44 5 6"})
    normal_player = PLAYERS["normal"]
    # Of its two weakest groups (33, 44) it leads the pair of threes whole.
    assert normal_player.choose(view(m, 0), m.legal(0), random.Random(0)) == Play(("3C", "3D"))
    play(m, 0, "5")
    # Seat 1 could beat a five by breaking its sevens, or with its 2: it plays its whole ten.
    assert normal_player.choose(view(m, 1), m.legal(1), random.Random(0)).cards[0][0] == "T"
    play(m, 1, "7")  # (the test breaks the pair instead) ...
    # ... seat 2 has no single to beat it whole: it breaks its eights, and keeps its 2.
    choice = normal_player.choose(view(m, 2), m.legal(2), random.Random(0))
    assert choice.cards[0][0] == "8"
    m.act(2, choice)
    m.act(3, Pass())
    # Seat 0 beats an eight with its single nine, not with its 2.
    assert normal_player.choose(view(m, 0), m.legal(0), random.Random(0)).cards[0][0] == "9"


def test_hard_goes_out_when_it_can() -> None:
    m = start(6, {0: "3333 444 55", 1: "5 88 99 TT JJ"}, revolution=False)
    for lead in ("3333", "444"):
        play(m, 0, lead)
        for seat in range(1, 6):
            m.act(seat, Pass())
    assert len(m.legal(0)) == 3
    assert PLAYERS["hard"].choose(view(m, 0), m.legal(0), random.Random(0)) == Play(("5C", "5D"))


def test_give_back_prefers_odd_low_cards_to_pairs_and_2s() -> None:
    m = start(4, {}, rounds=2)
    play_out(m)
    president, scum = view(m, None).places[0].seat, view(m, None).places[-1].seat
    next_deal(m, 4, {president: "33 44 5 7 9 JJ QQ KK", scum: "2A 666 888 TTT 55"})
    assert view(m, president).exchange.received == ("AC", "2C")  # type: ignore[union-attr]
    v = view(m, president)
    legal = m.legal(president)
    action = thoughtful_give(v, legal)
    assert isinstance(action, GiveBack) and action in legal
    assert [c[0] for c in action.cards] == ["5", "7"]
    assert PLAYERS["easy"].choose(v, legal, random.Random(0)) == legal[0]
