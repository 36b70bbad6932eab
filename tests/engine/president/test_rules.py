"""President rules, one scenario per rule, each from a pinned deal (docs/rules/president.md)."""

from __future__ import annotations

import pytest

from engine import errors
from engine.errors import IllegalAction
from engine.match import Match
from engine.president import GAME
from engine.president.cards import NORMAL_ORDER, RANK_CHARS, REVERSED_ORDER
from engine.president.rules import (
    LEADER_MUST_PLAY,
    NOT_CANONICAL,
    NOT_HIGHER,
    NOT_IN_HAND,
    ONE_RANK,
    WRONG_COUNT,
    Deal,
    GiveBack,
    Pass,
    Play,
)
from engine.president.views import ExchangeView
from tests.engine.president.scenario import (
    cards,
    deal_for,
    give_back,
    hands_from_ranks,
    next_deal,
    pass_,
    play,
    play_out,
    rank_key,
    sizes,
    start,
    view,
)
from tests.engine.refusals import refused


def ranks_of(actions: tuple[object, ...]) -> set[str]:
    return {a.cards[0][0] for a in actions if isinstance(a, Play)}


# -- the deal and the first lead ------------------------------------------------------------
@pytest.mark.parametrize(("players", "expected"), [
    (3, [18, 17, 17]), (4, [13] * 4), (5, [11, 11, 10, 10, 10]), (6, [9, 9, 9, 9, 8, 8])])
def test_the_whole_deck_is_dealt_as_evenly_as_possible(players: int, expected: list[int]) -> None:
    m = Match.start(GAME, players, {}, seed=3)
    v = view(m, None)
    assert list(v.hand_counts) == expected == sizes(players)
    assert sorted(c for s in range(players) for c in view(m, s).hand) == sorted(
        c for c in deal_for(hands_from_ranks(players, {})).cards)


def test_seat_0_leads_the_first_round_with_any_rank() -> None:
    m = start(4, {0: "K 2 A 9 TTT J Q 5 6 7 8"})
    assert m.to_act() == (0,)
    assert ranks_of(m.legal(0)) == set("K2A9TJQ5678")  # no three of clubs is required
    play(m, 0, "K")
    assert m.to_act() == (1,)


def test_a_deal_must_list_each_card_once() -> None:
    m = Match.start(GAME, 4, {}, seed=0, resolve=False)
    good = deal_for(hands_from_ranks(4, {}))
    for bad in (Deal(good.cards[:51]), Deal((good.cards[1], *good.cards[1:])),
                Deal(("XX", *good.cards[1:]))):
        with pytest.raises(IllegalAction) as e:
            m.apply_chance(bad)
        assert e.value.code == errors.BAD_CHANCE
    refused(m, 0, Pass(), errors.CHANCE_PENDING)
    m.apply_chance(good)
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(good)
    assert e.value.code == errors.NO_CHANCE_PENDING


# -- a trick --------------------------------------------------------------------------------
def test_the_leader_plays_one_to_four_cards_of_one_rank() -> None:
    m = start(4, {0: "3 44 555 6666 789"})
    legal = m.legal(0)
    assert all(isinstance(a, Play) and len({c[0] for c in a.cards}) == 1 for a in legal)
    assert {len(a.cards) for a in legal} == {1, 2, 3, 4}
    assert len(legal) == 1 + 3 + 7 + 15 + 3  # every combination of cards of one rank
    refused(m, 0, Pass(), LEADER_MUST_PLAY)
    refused(m, 0, Play(("3C", "4C")), ONE_RANK)
    refused(m, 0, Play(()), errors.ILLEGAL_ACTION)
    refused(m, 0, Play(("4D", "4C")), NOT_CANONICAL)  # listed as offered: weakest suit first
    refused(m, 0, Play(("TC",)), NOT_IN_HAND)
    refused(m, 1, Play(("TC",)), errors.NOT_YOUR_TURN)
    refused(m, 0, GiveBack(("3C",)), errors.ILLEGAL_ACTION)


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_followers_play_the_same_number_of_cards(size: int) -> None:
    m = start(4, {0: "3333 4444 5555 6", 1: "7777 8888 9999 T"}, revolution=False)
    play(m, 0, "3" * size)
    legal = m.legal(1)
    assert legal[-1] == Pass()
    plays = [a for a in legal if isinstance(a, Play)]
    assert plays and all(len(a.cards) == size for a in plays)
    for other in {1, 2, 3, 4} - {size}:
        refused(m, 1, cards(m, 1, "7" * other), WRONG_COUNT)
    play(m, 1, "7" * size)
    assert [len(p.cards) for p in view(m, 2).trick] == [size, size]


def test_a_play_must_be_strictly_higher_never_equal() -> None:
    m = start(4, {0: "7 K 33 44 55 66 88 9", 1: "3 6 7 8 J Q K A 2 99 TT"})
    play(m, 0, "7")
    assert ranks_of(m.legal(1)) == set("89JQKA2T")
    refused(m, 1, cards(m, 1, "7"), NOT_HIGHER)  # equal rank
    refused(m, 1, cards(m, 1, "6"), NOT_HIGHER)
    refused(m, 1, cards(m, 1, "3"), NOT_HIGHER)
    play(m, 1, "K")
    pass_(m, 2)
    pass_(m, 3)
    assert ranks_of(m.legal(0)) == set()  # nothing of seat 0 beats a king: only pass
    assert m.legal(0) == (Pass(),)


def test_the_rank_order_runs_from_3_to_2() -> None:
    m = start(4, {0: "K 33 44 55 66 77 88", 1: "3 4 5 6 7 8 9 T J Q K A 2"})
    play(m, 0, "K")
    assert ranks_of(m.legal(1)) == {"A", "2"}
    assert view(m, 1).order == NORMAL_ORDER == "3456789TJQKA2"


def test_a_pass_is_final_until_the_trick_is_cleared() -> None:
    m = start(4, {0: "5 T 33 44 66 77 88 J", 1: "6 9 Q K A 2 JJ 33 44 5",
                  2: "8 J 99 Q K A 2 T 77 K A"})  # seat 3: 55 6 8 9 TT QQ K A 22
    play(m, 0, "5")
    pass_(m, 1)
    play(m, 2, "8")
    play(m, 3, "9")
    play(m, 0, "T")
    assert m.to_act() == (2,)  # seat 1 passed: it is skipped though it could beat a ten
    assert m.legal(1) == ()
    assert view(m, None).passed == (1,)
    refused(m, 1, cards(m, 1, "Q"), errors.NOT_YOUR_TURN)
    play(m, 2, "J")
    play(m, 3, "Q")
    pass_(m, 0)
    assert m.to_act() == (2,)
    pass_(m, 2)
    # Everyone else still in the trick has passed: seat 3, the last to play, leads anything.
    v = view(m, None)
    assert v.trick == () and v.passed == () and m.to_act() == (3,)
    assert {len(a.cards) for a in m.legal(3)} == {1, 2}
    play(m, 3, "55")
    assert m.to_act() == (0,) and m.legal(1) == ()
    pass_(m, 0)
    assert any(isinstance(a, Play) for a in m.legal(1))  # seat 1 is back in after the clear


def test_the_lead_passes_over_finished_players() -> None:
    m = start(6, {0: "3333 4444 5", 1: "5 88 99 TT JJ", 2: "5 88 99 QQ KK",
                  3: "5 TT JJ AA 22", 4: "7 QQ KK AA 2", 5: "6666 777 2"}, revolution=False)
    for lead in ("3333", "4444"):
        play(m, 0, lead)
        for seat in range(1, 6):
            pass_(m, seat)
        assert m.to_act() == (0,)
    play(m, 0, "5")  # seat 0's last card: it is President and out of the round
    assert view(m, None).places[0].seat == 0 and view(m, None).places[0].title == "president"
    assert m.to_act() == (1,)  # the others may still beat its five
    for seat in range(1, 6):
        pass_(m, seat)
    assert m.to_act() == (1,) and view(m, None).trick == ()  # seat 0 would lead: seat 1 does
    play(m, 1, "5")
    for seat in (2, 3, 4):
        pass_(m, seat)
    play(m, 5, "2")
    assert m.to_act() == (1,)  # seat 0 has finished: it is skipped
    pass_(m, 1)
    assert m.to_act() == (5,)
    play(m, 5, "6666")
    for seat in (1, 2, 3, 4):
        assert m.legal(seat) == () or m.legal(seat) == (Pass(),)
        pass_(m, seat)
    play(m, 5, "777")  # seat 5 goes out on a trick nobody can beat
    for seat in (1, 2, 3, 4):
        assert m.legal(seat) == (Pass(),)
        pass_(m, seat)
    # Seat 5 won the trick but has finished; seat 0, next after it, has too: seat 1 leads.
    assert [p.seat for p in view(m, None).places] == [0, 5]
    assert m.to_act() == (1,) and view(m, None).trick == ()


# -- revolution -----------------------------------------------------------------------------
REVOLUTION_DEAL = {0: "5555 8 9 T J Q K A 2 8", 1: "6666 4444 8 9 T J Q", 2: "3333 7777 9 T J Q K"}


def test_four_of_a_kind_reverses_the_order_and_another_reverses_it_again() -> None:
    m = start(4, REVOLUTION_DEAL)
    play(m, 0, "5555")
    v = view(m, 3)
    assert v.reversed and v.order == REVERSED_ORDER == "2AKQJT9876543"
    assert len(v.trick) == 1 and m.to_act() == (1,)  # the trick is not cleared
    play(m, 1, "4444")
    assert not view(m, 0).reversed and view(m, 0).order == NORMAL_ORDER
    play(m, 2, "7777")
    assert view(m, 0).reversed
    for seat in (3, 0, 1):
        pass_(m, seat)
    assert m.to_act() == (2,)
    play(m, 2, "K")  # reversed: lower ranks now beat higher ones
    assert ranks_of(m.legal(3)) and all(
        RANK_CHARS.index(r) < RANK_CHARS.index("K") for r in ranks_of(m.legal(3)))


def test_four_of_a_kind_must_beat_the_top_in_the_order_in_force_then_flips_it() -> None:
    m = start(4, REVOLUTION_DEAL)
    play(m, 0, "5555")  # no top yet; after it the order is reversed
    # Reversed order is in force for seat 1: sixes are weaker than fives, fours stronger.
    assert [a.cards[0][0] for a in m.legal(1) if isinstance(a, Play)] == ["4"]
    refused(m, 1, cards(m, 1, "6666"), NOT_HIGHER)
    play(m, 1, "4444")  # beat the fives in reversed order; the order is normal again
    # Normal order for seat 2: threes are weaker than fours, sevens stronger.
    assert [a.cards[0][0] for a in m.legal(2) if isinstance(a, Play)] == ["7"]
    refused(m, 2, cards(m, 2, "3333"), NOT_HIGHER)
    play(m, 2, "7777")
    assert view(m, None).reversed


def test_revolution_off_four_of_a_kind_changes_nothing() -> None:
    m = start(4, REVOLUTION_DEAL, revolution=False)
    play(m, 0, "5555")
    assert not view(m, 1).reversed and view(m, 1).order == NORMAL_ORDER
    assert not view(m, 1).revolution_enabled
    assert [a.cards[0][0] for a in m.legal(1) if isinstance(a, Play)] == ["6"]
    refused(m, 1, cards(m, 1, "4444"), NOT_HIGHER)


def test_the_normal_order_returns_next_round() -> None:
    m = start(4, REVOLUTION_DEAL, rounds=2)
    play(m, 0, "5555")
    play_out(m, avoid_fours=True)
    assert view(m, None).phase == "between" and view(m, None).reversed  # still reversed at the end
    next_deal(m, 4, {})
    assert not view(m, None).reversed and view(m, None).order == NORMAL_ORDER


# -- places, points, end --------------------------------------------------------------------
TITLES = {
    3: ["president", "citizen", "scum"],
    4: ["president", "vice_president", "vice_scum", "scum"],
    5: ["president", "vice_president", "citizen", "vice_scum", "scum"],
    6: ["president", "vice_president", "citizen", "citizen", "vice_scum", "scum"],
}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_places_and_points(players: int) -> None:
    m = start(players, {})
    emptied = play_out(m)
    v = view(m, None)
    assert len(emptied) == players - 1  # the round ends when all but one have emptied hands
    last = next(s for s in range(players) if s not in emptied)
    assert v.hand_counts[last] > 0
    assert [p.seat for p in v.places] == [*emptied, last]
    assert [p.title for p in v.places] == TITLES[players]
    assert [p.points for p in v.places] == list(range(players, 0, -1))
    for p in v.places:
        assert v.round_points[p.seat] == p.points == v.totals[p.seat]
    outcome = m.outcome()
    assert outcome is not None and v.phase == "over"
    assert outcome.winners == (emptied[0],) and outcome.scores == v.totals
    assert outcome.reason == "president.most_points"


def test_round_and_game_end() -> None:
    m = start(4, {}, rounds=2)
    first = play_out(m)
    v = view(m, 2)
    assert GAME.between_hands(m.state) and v.phase == "between"
    assert m.outcome() is None and m.to_act() == () and all(m.legal(s) == () for s in range(4))
    assert m.chance_pending()
    assert [p.seat for p in v.places][:3] == first and v.round_points == v.totals
    refused(m, 0, Pass(), errors.CHANCE_PENDING)
    points1 = v.round_points
    scum = v.places[-1].seat
    next_deal(m, 4, {})
    v = view(m, 2)
    assert v.round == 2 and v.round_points == () and v.places == ()
    assert [p.seat for p in v.previous_places][:3] == first and v.totals == points1
    for seat in m.to_act():  # the President and Vice-President give back their weakest
        hand = view(m, seat).hand
        give_back(m, seat, " ".join(hand[: view(m, seat).exchange.to_give]))  # type: ignore[union-attr]
    assert m.to_act() == (scum,)  # the Scum leads the next round
    play_out(m)
    v = view(m, None)
    outcome = m.outcome()
    assert v.phase == "over" and outcome is not None and not GAME.between_hands(m.state)
    assert outcome.scores == v.totals == tuple(
        a + b for a, b in zip(points1, v.round_points, strict=True))
    assert outcome.winners == (max(range(4), key=lambda s: (v.totals[s], -[
        p.seat for p in v.places].index(s))),)
    assert m.game.chance_outcome(m.state) is None
    refused(m, 0, Pass(), errors.GAME_OVER)


def test_equal_totals_go_to_the_better_place_in_the_last_round() -> None:
    m = start(4, {}, rounds=2)
    play_out(m)
    next_deal(m, 4, {})
    for seat in m.to_act():
        give_back(m, seat, " ".join(view(m, seat).hand[: view(m, seat).exchange.to_give]))  # type: ignore[union-attr]
    play_out(m)
    places = m.state.places
    tied = m.state._replace(totals=tuple(5 if s in (places[1], places[3]) else 3 for s in range(4)))
    outcome = GAME.outcome(tied)
    assert outcome is not None
    assert outcome.winners == (places[1],) and outcome.reason == "president.tie_broken_by_last_round"
    assert not outcome.draw


# -- the series exchange --------------------------------------------------------------------
def best(hand: list[str], n: int) -> list[str]:
    return sorted(hand, key=rank_key)[-n:]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_series_exchange(players: int) -> None:
    m = start(players, {}, rounds=2)
    play_out(m)
    order = [p.seat for p in view(m, None).places]
    president, scum = order[0], order[-1]
    vice = (order[1], order[-2]) if players >= 4 else None
    spec = {scum: "33445566778899TTJJ"[: sizes(players)[scum] - 3] + "222"}  # the best two go
    hands = hands_from_ranks(players, spec)
    m.apply_chance(deal_for(hands))
    v = view(m, None)
    assert v.phase == "exchange" and m.to_act() == ((president, vice[0]) if vice else (president,))
    moved = best(hands[scum], 2)
    assert moved == ["2D", "2H"]  # it holds 2C 2D 2H: ties go by suit, clubs lowest
    assert set(moved) <= set(view(m, president).hand) and not set(moved) & set(view(m, scum).hand)
    assert view(m, president).exchange == ExchangeView(scum, (), tuple(moved), 2)
    assert view(m, scum).exchange == ExchangeView(president, tuple(moved), (), 0)
    if vice is not None:
        vp, vs = vice
        vmoved = best(hands[vs], 1)
        assert view(m, vp).exchange == ExchangeView(vs, (), tuple(vmoved), 1)
        assert view(m, vs).exchange == ExchangeView(vp, tuple(vmoved), (), 0)
    for seat in [None, *range(players)]:
        if seat not in (president, scum, *(vice or ())):
            assert view(m, seat).exchange is None
    counts = view(m, None).hand_counts
    assert counts[president] == sizes(players)[president] + 2
    # The President chooses any two cards (received ones too), as offered: weakest first.
    legal = m.legal(president)
    n_held = counts[president]
    assert len(legal) == n_held * (n_held - 1) // 2 and all(isinstance(a, GiveBack) for a in legal)
    assert GiveBack(("2D", "2H")) in legal
    hand = view(m, president).hand
    refused(m, president, GiveBack((hand[0],)), WRONG_COUNT)
    refused(m, president, GiveBack((hand[1], hand[0])), NOT_CANONICAL)
    refused(m, president, GiveBack(("3C", "3C")), NOT_IN_HAND)
    refused(m, president, Play((hand[0],)), errors.ILLEGAL_ACTION)
    refused(m, scum, GiveBack((view(m, scum).hand[0],)), errors.NOT_YOUR_TURN)
    if vice is not None:  # the two give-backs are independent: the Vice-President may go first
        vp, vs = vice
        vback = view(m, vp).hand[0]
        give_back(m, vp, vback)
        assert view(m, vs).exchange == ExchangeView(vp, tuple(vmoved), (vback,), 0)
        assert vback in view(m, vs).hand
        assert m.to_act() == (president,)
    back = hand[:2]
    give_back(m, president, " ".join(back))
    assert view(m, scum).exchange == ExchangeView(president, tuple(moved), tuple(back), 0)
    assert view(m, president).exchange == ExchangeView(scum, tuple(back), tuple(moved), 0)
    assert set(back) <= set(view(m, scum).hand)
    assert list(view(m, None).hand_counts) == sizes(players)
    assert view(m, None).phase == "play" and m.to_act() == (scum,)


def test_the_catalogue_entry_names_the_ruleset() -> None:
    info = GAME.info.describe()
    assert info["rules_version"] == "CardVerse 1.1.0" and info["players"] == [3, 4, 5, 6]
    assert {o["name"]: o["default"] for o in info["options"]} == {"revolution": True, "rounds": 1}
    assert GAME.validate(4, {"rounds": "3", "revolution": "off"}) == {
        "revolution": False, "rounds": 3}
