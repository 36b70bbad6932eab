"""Every registered game passes the generic conformance check (see conformance.py).

``CONFORMANCE_GAMES`` scales the number of cheap random games per game and player count.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from engine import registry
from engine.codec import to_data
from engine.match import Match
from engine.presentation import Caption, presentation_problems
from engine.records import to_record
from tests.engine.conformance import play_random

QUICK = int(os.environ.get("CONFORMANCE_GAMES", "1000"))
DEEP = int(os.environ.get("CONFORMANCE_DEEP", "12"))


def player_counts(game_id: str) -> list[int]:
    counts = list(registry.get(game_id).info.players)
    if len(counts) <= 3:
        return counts
    return [counts[0], counts[len(counts) // 2], counts[-1]]


CASES = [(g, n) for g in registry.ids() for n in player_counts(g)]


# Games are counted, and so are steps: a case stops at its game count or when its games have
# taken this many steps each on average, whichever comes first. Sequence, Euchre and President
# (under 200 steps a game) play every game; a game entered in many small steps (a Mastermind
# guess is some twenty) plays fewer whole games, and its own package's conformance test covers
# its options in depth (tests/engine/<game>/test_conformance.py).
STEPS_PER_GAME = 200
DEEP_STEPS_PER_GAME = 250


def play_budgeted(game_id: str, players: int, games: int, first_seed: int, per_game: int,
                  deep: bool = False) -> int:
    """Random games until ``games`` are played or the step budget is spent; games played."""
    game = registry.get(game_id)
    budget, played = games * per_game, 0
    while played < games and budget > 0:
        m = play_random(game, first_seed + played, players, deep=deep)
        budget -= len(m.steps)
        played += 1
    return played


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_games(game_id: str, players: int) -> None:
    per_count = max(1, QUICK // len(player_counts(game_id)))
    assert play_budgeted(game_id, players, per_count, 0, STEPS_PER_GAME) >= min(per_count, 10)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_deep_random_games(game_id: str, players: int) -> None:
    assert play_budgeted(game_id, players, DEEP, 10_000, DEEP_STEPS_PER_GAME, deep=True) >= 1


def test_catalogue_is_not_empty() -> None:
    assert registry.ids(), "no game is registered"


@pytest.mark.parametrize("game_id", registry.ids())
def test_presentation_descriptor_fits_the_game(game_id: str) -> None:
    """Each zone draws a field the views have; each gesture fills fields the actions have;
    there is a seat colour for every side the game can have."""
    game = registry.get(game_id)
    p = game.info.presentation
    assert presentation_problems(p) == []
    view_fields: set[str] = set()
    action_fields: set[str] = set()
    sides = 0
    for n in player_counts(game_id):
        m = play_random(game, 77, n)
        sides = max(sides, max(m.teams()) + 1)
        rec = to_record(m)
        for step in rec["steps"]:
            if "action" in step:
                action_fields |= set(step["action"]) - {"type"}
        for s in [None, *range(n)]:
            view_fields |= set(to_data(m.view(s)))
    for z in p.zones:
        assert z.field in view_fields, f"zone {z.name} draws {z.field}, not a view field"
        assert not z.faces or z.faces in view_fields, f"zone {z.name} prints {z.faces}"
    for g in p.gestures:
        assert set(g.fields) <= action_fields, f"{g.kind} fills {g.fields}: not action fields"
    if p.seat_colours:
        assert len(p.seat_colours) >= sides


def _until(m: Match, done: Any, rng: random.Random, steps: int = 400,
           prefer: str = "") -> None:
    """Random legal moves (a ``prefer`` type when legal) until ``done(m)``."""
    for _ in range(steps):
        if done(m):
            return
        if not m.to_act():
            m.resolve_chance()
            continue
        seat = m.to_act()[0]
        legal = m.legal(seat)
        liked = [a for a in legal if type(a).__name__.lower() == prefer]
        m.act(seat, (liked or legal)[rng.randrange(len(liked or legal))])
    raise AssertionError("never reached")


def test_the_common_part_says_what_the_hooks_used_to() -> None:
    """Euchre's common part, as every client now draws it: the bid at each bidder's feet, the
    dealer's badge, the lines told from the reader's side, and the last move in words."""
    game = registry.get("euchre")
    m = Match.start(game, 4, {}, 11)
    m.resolve_chance()
    rng = random.Random(3)
    _until(m, lambda m: len(m.view(None).bids) >= 2, rng, prefer="pass")
    v = m.view(1)
    c = game.common(v)
    bidders = {b.seat for b in v.bids}
    assert [n is not None for n in c.seat_notes] == [s in bidders for s in range(4)]
    assert Caption("euchre.dealer") in c.badges[v.dealer]
    assert c.captions[1].args[:2] == (("first", "euchre.us"), ("a", v.tricks_won[1]))
    spectator = game.common(m.view(None))
    assert spectator.captions[1].args[0] == ("first", "euchre.side.0")
    assert c.last is not None and c.last.key.startswith("euchre.bid.")
    assert dict(c.last.args)["seat"] == v.bids[-1].seat
    _until(m, lambda m: len(m.view(None).trick) == 1, rng)
    last = game.common(m.view(None)).last
    play = m.view(None).trick[0]
    assert last == Caption("euchre.last.play", (("seat", play.seat), ("card", play.card)))


def test_president_says_titles_passes_and_places_from_the_view() -> None:
    game = registry.get("president")
    m = Match.start(game, 4, {"rounds": 2}, 5)
    m.resolve_chance()
    rng = random.Random(1)
    _until(m, lambda m: m.view(None).phase == "between", rng, 2000)
    v = m.view(None)
    c = game.common(v)
    assert c.result[0] == Caption("president.round_over", (("n", 1),))
    assert [dict(x.args)["seat"] for x in c.result[1:]] == [p.seat for p in v.places]
    assert all(len(b) == 1 and b[0].key == "president.finished" for b in c.badges)
    _until(m, lambda m: bool(m.view(None).passed) and m.view(None).phase == "play", rng, 2000)
    v = m.view(None)
    notes = game.common(v).seat_notes
    assert [n is not None for n in notes] == [s in v.passed for s in range(4)]


def test_wizard_sheet_is_the_views_rounds_and_never_a_hidden_bid() -> None:
    """Wizard's score sheet (drawn by every client's shared sheet, not a hook) is the view's
    finished rounds, cell for cell, the same for every seat; bids of the round being bid are
    never in it."""
    game = registry.get("wizard")
    m = Match.start(game, 3, {"hidden_bids": True, "rounds": "5"}, 11)
    rng = random.Random(2)
    assert game.common(m.view(None)).sheet is None  # nothing scored yet
    _until(m, lambda m: len(m.view(None).sheet) == 2 and m.view(None).phase == "bidding"
           and any(m.view(None).bids_in), rng, 2000)
    v = m.view(0)
    sheet = game.common(v).sheet
    assert sheet is not None and sheet.title == Caption("wizard.field.sheet")
    assert len(sheet.rows) == len(v.sheet) == v.round - 1  # the round being bid is not in it
    assert [dict(h.args).get("seat") for h in sheet.heads] == [None, 0, 1, 2]
    for row, r in zip(sheet.rows, v.sheet, strict=True):
        assert row[0] == Caption("wizard.sheet.number", (("n", r.round),))
        for s, cell in enumerate(row[1:]):
            args = dict(cell.args)
            assert (args["bid"], args["taken"], int(args["points"]), args["total"]) == (
                r.bids[s], r.taken[s], r.points[s], r.totals[s])
            assert str(args["points"]).startswith("+") == (r.points[s] > 0)
    assert [dict(x.args).get("n") for x in sheet.totals[1:]] == list(v.sheet[-1].totals)
    # every seat and the spectator read the same sheet: it holds only finished rounds
    assert all(game.common(m.view(s)).sheet == sheet for s in (None, 1, 2))


def test_sequence_marks_and_side_notes_are_the_views() -> None:
    """What Sequence's board shows over its chips (completed lines, locked chips, the last
    move) and each team's standing come from the seat's view, for the grid family to draw."""
    game = registry.get("sequence")
    m = Match.start(game, 2, {"sequences_to_win": 2}, 5)
    rng = random.Random(4)
    _until(m, lambda m: bool(m.view(None).sequences) and m.view(None).last is not None, rng,
           3000)
    v = m.view(1)
    c = game.common(v)
    assert c.marks is not None
    assert [(x.side, x.cells) for x in c.marks.lines] == [(x.team, x.squares)
                                                            for x in v.sequences]
    assert c.marks.locked == v.locked and c.marks.last == v.last.squares
    assert [dict(n.args) for n in c.side_notes] == [{"n": n, "goal": 2} for n in v.score]
    assert c.side_notes[0].key == "sequence.side"
