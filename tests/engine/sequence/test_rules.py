"""Sequence rules, one or more scenarios per rule, from pinned deals (see scenario.py).

Board squares are (row, col) of the commercial layout; ``at(r, c)`` plays the card printed
there. Seat 1's "filler" moves are scattered so they never make a line of their own.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import errors
from engine.errors import IllegalAction, OptionError
from engine.match import Match
from engine.sequence import GAME
from engine.sequence.board import PLAYABLE_MASK
from engine.sequence.data import Discard, ExchangeDead, Place, Remove, Reshuffle, Wild
from engine.sequence.state import can_ever_move
from tests.engine.refusals import refused
from tests.engine.sequence.scenario import (
    alternate,
    at,
    play,
    random_until,
    scripted,
    squares,
)

ROW8 = [at(8, c) for c in range(9)]  # AC 7S 6S 5S 4S 3S 2S 2H 3H
FILLER1 = [at(1, 0), at(1, 2), at(1, 4), at(1, 6), at(3, 1), at(3, 3), at(3, 5), at(3, 7)]



def chips(m: Match) -> dict[tuple[int, int], int]:
    grid = m.view(None).chips
    return {(r, c): t for r, row in enumerate(grid) for c, t in enumerate(row) if t >= 0}


# -- players, teams and the deal -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "hand"),
                         [(2, 7), (3, 6), (4, 6), (6, 5), (8, 4), (9, 4), (10, 3), (12, 3)])
def test_hand_sizes_and_two_decks_without_jokers(players: int, hand: int) -> None:
    m = Match.start(GAME, players, None, seed=1)
    v = m.view(0)
    assert v.hand_counts == (hand,) * players
    assert v.draw_pile == 104 - hand * players
    deck = m.steps[0].outcome.deck  # type: ignore[union-attr]
    assert len(deck) == 104 and len(set(deck)) == 52  # two of each card, nothing else


@pytest.mark.parametrize("players", [1, 5, 7, 11, 13])
def test_player_counts_that_cannot_split_evenly_are_refused(players: int) -> None:
    with pytest.raises(OptionError) as e:
        GAME.validate(players, {})
    assert e.value.option == "players"
    assert tuple(e.value.allowed) == (2, 3, 4, 6, 8, 9, 10, 12)


@pytest.mark.parametrize(
    ("players", "options", "teams"),
    [
        (2, {}, (0, 1)),
        (3, {}, (0, 1, 2)),
        (4, {}, (0, 1, 0, 1)),
        (6, {}, (0, 1, 0, 1, 0, 1)),
        (6, {"teams": 3}, (0, 1, 2, 0, 1, 2)),
        (6, {"players_per_team": 2}, (0, 1, 2, 0, 1, 2)),
        (9, {}, (0, 1, 2) * 3),
        (12, {"teams": 3, "players_per_team": 4}, (0, 1, 2) * 4),
    ],
)
def test_seats_alternate_teams(players: int, options: dict[str, int], teams: tuple[int, ...]) -> None:
    assert GAME.teams(players, GAME.validate(players, options)) == teams
    assert Match.start(GAME, players, options, seed=0).view(None).teams == teams


@pytest.mark.parametrize(
    ("players", "options", "option", "allowed"),
    [
        (4, {"teams": 3}, "teams", (2,)),
        (2, {"teams": 3}, "teams", (2,)),
        (3, {"teams": 2}, "teams", (3,)),
        (6, {"players_per_team": 4}, "players_per_team", (3, 2)),
        (6, {"teams": 2, "players_per_team": 2}, "players_per_team", (3,)),
        (2, {"players_per_team": 2}, "players_per_team", (1,)),
        (2, {"fill_board": True, "sequences_to_win": 3}, "sequences_to_win", "unset"),
        (2, {"board": "hexagonal"}, "board", ("commercial", "random")),
        (2, {"sequences_to_win": 0}, "sequences_to_win", "integer 1..6, or unset"),
        (2, {"jokers": True}, "jokers", None),
    ],
)
def test_bad_options_name_the_option_and_the_allowed_values(
        players: int, options: dict[str, object], option: str, allowed: object) -> None:
    with pytest.raises(OptionError) as e:
        GAME.validate(players, options)
    assert e.value.option == option
    if allowed is not None:
        got = e.value.allowed
        assert (got if isinstance(got, str) else tuple(got)) == allowed


# -- a turn ----------------------------------------------------------------------------------------


def test_a_turn_plays_a_card_onto_one_of_its_squares_and_draws() -> None:
    moves = [(0, at(8, 0)), (1, at(1, 0))]
    m = scripted(2, moves, extra={0: ["KS"]})
    deck = m.steps[0].outcome.deck  # type: ignore[union-attr]
    v = m.view(0)
    hand = [c.card for c in v.hand]
    assert hand.count("AC") == 1 and v.turn == 0
    assert Place("AC", 8, 0) in m.legal(0) and Place("AC", 7, 5) in m.legal(0)
    refused(m, 0, Place("AC", 8, 1), "wrong_square")
    refused(m, 0, Place("QH", 1, 7), "card_not_in_hand")
    refused(m, 0, Place("AC", 10, 0), errors.ILLEGAL_ACTION)
    refused(m, 0, Place("ZZ", 8, 0), errors.ILLEGAL_ACTION)
    refused(m, 1, at(1, 0), errors.NOT_YOUR_TURN)
    m.act(0, at(8, 0))
    v = m.view(0)
    assert chips(m) == {(8, 0): 0}
    assert v.hand_counts == (7, 7) and v.draw_pile == 104 - 15
    hand.remove("AC")
    assert sorted(c.card for c in v.hand) == sorted([*hand, deck[14]])  # the top of the pile
    assert v.discards == ("AC",) and v.turn == 1 and m.to_act() == (1,)
    assert v.last is not None
    assert (v.last.seat, v.last.type, v.last.card, v.last.squares) == (0, "place", "AC", ((8, 0),))
    refused(m, 1, Place("AC", 8, 0), "card_not_in_hand")
    m.act(1, at(1, 0))
    refused(m, 0, Place("KS", 1, 0), "wrong_square")
    assert Place("KS", 3, 1) in m.legal(0)


def test_a_taken_square_cannot_be_played_again() -> None:
    moves = [(0, at(8, 0)), (1, at(1, 0))]
    m = scripted(2, moves, extra={1: ["AC"]})
    play(m, moves[:1])
    refused(m, 1, Place("AC", 8, 0), "square_taken")
    assert Place("AC", 8, 0) not in m.legal(1) and Place("AC", 7, 5) in m.legal(1)


def test_two_eyed_jacks_are_wild_on_any_empty_square_and_end_the_turn() -> None:
    moves = [(0, at(8, 0)), (1, Wild("JD", 5, 5)), (0, Wild("JC", 8, 1))]
    m = scripted(2, moves)
    play(m, moves[:1])
    wilds = [a for a in m.legal(1) if isinstance(a, Wild)]
    assert len(wilds) == 96 - 1 and Wild("JD", 8, 0) not in wilds
    refused(m, 1, Wild("JD", 8, 0), "square_taken")
    refused(m, 1, Wild("JD", 0, 0), "wrong_square")  # a free corner holds no chip
    refused(m, 1, Remove("JD", 8, 0, 0), errors.ILLEGAL_ACTION)
    refused(m, 1, Place("JD", 8, 0), errors.ILLEGAL_ACTION)
    assert next(c.caption for c in m.view(1).hand if c.card == "JD") == "sequence.card.wild"
    m.act(1, Wild("JD", 5, 5))
    assert chips(m) == {(8, 0): 0, (5, 5): 1} and m.to_act() == (0,)
    m.act(0, Wild("JC", 8, 1))
    assert chips(m)[(8, 1)] == 0 and m.to_act() == (1,)


def test_one_eyed_jacks_remove_an_opposing_chip_never_your_own_nor_a_locked_one() -> None:
    seat0 = [ROW8[0], at(9, 1), ROW8[1], ROW8[2], ROW8[3], ROW8[4], at(0, 6)]
    seat1 = [*FILLER1[:5], Remove("JH", 9, 1, 0), at(3, 3)]
    moves = alternate(seat0, seat1)
    m = scripted(2, moves)
    play(m, moves[:11])  # seat 0 has a sequence on row 8 and a loose chip on (9, 1)
    assert m.view(1).score == (1, 0)
    assert set(m.view(1).locked) == {(8, c) for c in range(5)}
    removes = {(a.row, a.col) for a in m.legal(1) if isinstance(a, Remove)}
    assert removes == {(9, 1)}  # not the sequence, not seat 1's own chips
    assert next(c.caption for c in m.view(1).hand if c.card == "JH") == "sequence.card.remove"
    refused(m, 1, Remove("JH", 8, 0, 0), "chip_locked")
    refused(m, 1, Remove("JH", 1, 0, 1), "no_opposing_chip")  # its own chip
    refused(m, 1, Remove("JH", 1, 0, 0), "no_opposing_chip")  # wrong owner named
    refused(m, 1, Remove("JH", 5, 5, 0), "no_opposing_chip")  # nothing there
    refused(m, 1, Wild("JH", 5, 5), errors.ILLEGAL_ACTION)
    m.act(1, Remove("JH", 9, 1, 0))
    assert (9, 1) not in chips(m) and m.to_act() == (0,)  # the jack ended the turn
    v = m.view(0)
    assert v.last is not None and (v.last.type, v.last.squares) == ("remove", ((9, 1),))
    assert v.discards[-1] == "JH"


# -- dead cards ----------------------------------------------------------------------------------


def _dead_card_script() -> list[tuple[int, Any]]:
    # Seat 0 plays one 5D and one 4D; seat 1 covers the twins' squares with wild jacks.
    return [(0, Place("5D", 2, 5)), (1, Wild("JD", 8, 9)), (0, Place("4D", 2, 4)),
            (1, Wild("JC", 7, 9))]


@pytest.mark.parametrize("dead_card", [True, False])
def test_dead_cards_are_exchanged_once_per_turn_without_losing_it(dead_card: bool) -> None:
    moves = _dead_card_script()
    m = scripted(2, moves, {"dead_card": dead_card}, extra={0: ["5D", "4D"]},
                 filler=["QC", "QD", "KC", "KD", "TC"])
    play(m, moves)
    captions = {c.card: c.caption for c in m.view(0).hand}
    assert captions["5D"] == captions["4D"] == "sequence.card.dead"
    assert {c for c, cap in captions.items() if cap == "sequence.card.dead"} == {"5D", "4D"}
    if not dead_card:
        assert not [a for a in m.legal(0) if isinstance(a, ExchangeDead)]
        refused(m, 0, ExchangeDead("5D"), "variant_off")
        return
    assert {a for a in m.legal(0) if isinstance(a, ExchangeDead)} == {
        ExchangeDead("5D"), ExchangeDead("4D")}
    refused(m, 0, ExchangeDead("QC"), "card_not_dead")
    before = m.view(0).draw_pile
    m.act(0, ExchangeDead("5D"))
    v = m.view(0)
    assert m.to_act() == (0,) and v.exchanged  # still seat 0's turn
    assert v.hand_counts[0] == 7 and v.draw_pile == before - 1 and v.discards[-1] == "5D"
    assert "5D" not in [c.card for c in v.hand]
    assert not [a for a in m.legal(0) if isinstance(a, ExchangeDead)]
    refused(m, 0, ExchangeDead("4D"), "already_exchanged")
    m.act(0, next(a for a in m.legal(0) if isinstance(a, Place)))
    assert m.to_act() == (1,) and not m.view(1).exchanged


def test_when_nothing_can_be_played_a_card_is_discarded_and_the_turn_passes() -> None:
    m = Match.start(GAME, 2, {"fill_board": True}, seed=0)
    assert not [a for a in m.legal(0) if isinstance(a, Discard)]
    refused(m, 0, Discard(m.view(0).hand[0].card), "must_play")
    assert random_until(m, lambda m: bool(m.to_act()) and isinstance(m.legal(m.to_act()[0])[0], Discard), 1)
    seat = m.to_act()[0]
    legal = m.legal(seat)
    hand = [c.card for c in m.view(seat).hand]
    assert all(isinstance(a, Discard) for a in legal)
    assert sorted(a.card for a in legal) == sorted(set(hand))
    m.act(seat, legal[0])
    m.resolve_chance()
    v = m.view(seat)
    assert m.to_act() != (seat,) and v.discards[-1] == legal[0].card


# -- sequences -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        [at(8, c) for c in range(1, 6)],  # horizontal
        [at(r, 9) for r in range(2, 7)],  # vertical (clear of the corner)
        [at(r, r) for r in range(2, 7)],  # diagonal
        [at(r, 9 - r) for r in range(2, 7)],  # anti-diagonal
    ],
    ids=["horizontal", "vertical", "diagonal", "anti-diagonal"],
)
def test_five_in_a_row_in_any_direction_is_a_sequence(line: list[Place]) -> None:
    moves = alternate(line, FILLER1[:5])
    m = scripted(2, moves, {"sequences_to_win": 1})
    play(m, moves[:-2])
    assert m.view(0).score == (0, 0)
    m.act(0, line[-1])
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.reason == "sequence.won_by_sequences"
    assert not o.draw and o.scores == (1, 0)
    (seq,) = m.view(None).sequences
    assert seq.team == 0 and set(seq.squares) == {(a.row, a.col) for a in line}
    assert m.to_act() == () and m.legal(1) == ()
    refused(m, 1, FILLER1[4], errors.GAME_OVER)


def _last_chip_makes_two(seat0: list[Place]) -> Match:
    """Seat 0 plays ``seat0`` (seat 1 plays elsewhere); only its last chip completes lines,
    and that chip makes two sequences at once and wins."""
    moves = alternate(seat0, [*FILLER1, at(3, 8)])
    m = scripted(2, moves)
    play(m, moves[:-2])
    assert m.view(0).score == (0, 0)
    m.act(0, seat0[-1])
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.scores == (2, 0)
    return m


def test_a_straight_line_of_nine_is_two_sequences_and_wins_at_once() -> None:
    m = _last_chip_makes_two([*ROW8[:4], *ROW8[5:], ROW8[4]])  # the middle chip last
    lines = {frozenset(s.squares) for s in m.view(None).sequences}
    assert lines == {frozenset((8, c) for c in range(5)), frozenset((8, c) for c in range(4, 9))}


def test_two_sequences_may_share_one_chip_but_not_two() -> None:
    moves = alternate(ROW8, [*FILLER1, at(3, 8)])
    m = scripted(2, moves)
    for k in range(5):
        play(m, moves[2 * k:2 * k + 2])
    assert m.view(0).score == (1, 0)  # (8,0)..(8,4)
    for k in range(5, 8):
        play(m, moves[2 * k:2 * k + 2])
    # Eight in a row: every further line of five shares two or more chips with the first.
    assert m.view(0).score == (1, 0) and m.outcome() is None
    m.act(0, ROW8[8])
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.scores == (2, 0)


def test_crossing_sequences_that_share_one_chip_both_count() -> None:
    vertical = [at(r, 4) for r in range(4, 8)]  # 5H 2H 9H KC, crossing row 8 at (8, 4)
    m = _last_chip_makes_two([*ROW8[:4], *vertical, ROW8[4]])
    a, b = (set(s.squares) for s in m.view(None).sequences)
    assert a & b == {(8, 4)}


def test_free_corners_count_for_every_team() -> None:
    seat0 = [at(0, c) for c in range(1, 5)]  # with the corner (0, 0)
    seat1 = [at(r, 0) for r in range(1, 5)]  # the same corner
    moves = alternate(seat0, seat1)
    m = scripted(2, moves)
    play(m, moves[:-1])
    assert m.view(0).score == (1, 0)
    m.act(1, seat1[-1])
    v = m.view(None)
    assert v.score == (1, 1) and m.outcome() is None
    assert all((0, 0) in s.squares for s in v.sequences)
    assert (0, 0) not in v.locked  # a corner holds no chip to lock


def test_three_teams_need_one_sequence_and_the_option_overrides_it() -> None:
    line = [at(8, c) for c in range(1, 6)]
    moves = alternate(line, FILLER1[:5], [at(r, 9) for r in range(1, 4)] + [at(5, 9), at(6, 9)])
    m = scripted(3, moves)
    play(m, moves[:-3])
    m.act(0, line[-1])
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.reason == "sequence.won_by_sequences"
    m = scripted(3, moves, {"sequences_to_win": 2})
    play(m, moves[:-2])
    assert m.outcome() is None and m.view(0).score == (1, 0, 0)


def test_a_team_win_names_every_seat_of_the_team() -> None:
    line = [at(8, c) for c in range(1, 6)]  # seats 0 and 2 lay it together for team 0
    moves = [(0, line[0]), (1, FILLER1[0]), (2, line[1]), (3, FILLER1[1]),
             (0, line[2]), (1, FILLER1[2]), (2, line[3]), (3, FILLER1[3]), (0, line[4])]
    m = scripted(4, moves, {"sequences_to_win": 1})
    play(m, moves)
    o = m.outcome()
    assert o is not None and o.winners == (0, 2) and o.scores == (1, 0, 1, 0)


# -- the draw pile -----------------------------------------------------------------------------------


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discards() -> None:
    m = Match.start(GAME, 2, {"fill_board": True}, seed=3)
    assert random_until(m, lambda m: m.chance_pending(), 2)
    pending = GAME.chance_outcome(m.state)
    assert isinstance(pending, Reshuffle)
    v = m.view(0)
    assert v.draw_pile == 0 and m.to_act() == () and m.legal(0) == m.legal(1) == ()
    discards = v.discards
    assert sorted(pending.deck) == sorted(discards)
    state = m.state
    for bad in (discards[:-1], (*discards[:-1], "ZZ"), (*discards, "AS")):
        with pytest.raises(IllegalAction) as e:
            m.apply_chance(Reshuffle(tuple(bad)))
        assert e.value.code == "bad_chance"
        assert m.state is state
    last = m.view(None).last
    assert last is not None
    owed_to = last.seat
    pinned = tuple(reversed(discards))
    m.apply_chance(Reshuffle(pinned))
    v = m.view(owed_to)
    assert pinned[0] in [c.card for c in v.hand]
    assert v.discards == () and v.draw_pile == len(pinned) - 1
    assert m.to_act()


def test_without_reshuffle_play_goes_on_with_smaller_hands() -> None:
    m = Match.start(GAME, 2, {"reshuffle": False, "sequences_to_win": 6}, seed=2)
    assert random_until(m, lambda m: m.view(None).draw_pile == 0, 4)
    seen_small = random_until(m, lambda m: min(m.view(None).hand_counts) < 7, 4)
    assert seen_small and not m.chance_pending()
    assert m.view(None).discards  # the discards stay where they are


def test_a_position_where_nobody_can_ever_move_again_is_a_draw() -> None:
    m = Match.start(GAME, 2, {"reshuffle": False, "sequences_to_win": 6}, seed=2)
    random_until(m, lambda m: False, 4)
    o = m.outcome()
    assert o is not None and o.draw and o.winners == () and o.reason == "sequence.no_moves"
    assert m.to_act() == () and not can_ever_move(m.state)


def test_can_ever_move_with_reshuffling_needs_an_empty_square_or_a_loose_chip() -> None:
    st = Match.start(GAME, 2, None, seed=0).state.copy()
    assert can_ever_move(st)
    st.chips = (PLAYABLE_MASK & ~(1 << 55), 0)  # one empty square
    st.occ = st.chips[0]
    assert can_ever_move(st)
    st.chips = (PLAYABLE_MASK, 0)
    st.occ = PLAYABLE_MASK
    assert can_ever_move(st)  # full, but team 1 may still remove a loose chip
    st.locked = PLAYABLE_MASK
    assert not can_ever_move(st)


def test_squares_helper_matches_the_layout() -> None:
    assert squares("AC") == [(7, 5), (8, 0)]
    assert squares("5D") == [(2, 5), (8, 9)]
