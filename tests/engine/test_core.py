"""The rules-interface machinery, exercised through a tiny test game."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import registry
from engine.catalogue import GameInfo, Option, parse_assignments
from engine.codec import Registry, from_data, tag_of, to_data, to_wire
from engine.errors import CodecError, IllegalAction, OptionError, RecordError
from engine.match import Match
from engine.records import replay, to_record
from tests.engine import toygame
from tests.engine.conformance import play_random


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "toy", "tests.engine.toygame")


@dataclass(frozen=True)
class Inner:
    card: str


@dataclass(frozen=True)
class PlaceChip:
    card: str
    row: int
    col: int
    alone: bool = False
    cells: tuple[tuple[int, int], ...] = ()
    inner: Inner | None = None


def test_codec_round_trip_and_tag() -> None:
    a = PlaceChip("JD", 3, 4, True, ((1, 2), (3, 4)), Inner("AS"))
    data = to_data(a)
    assert data["type"] == "place_chip" == tag_of(PlaceChip)
    assert data["cells"] == [[1, 2], [3, 4]]
    assert from_data(PlaceChip, json.loads(json.dumps(data))) == a
    assert Registry([PlaceChip, Inner]).decode(data) == a


@dataclass(frozen=True)
class Tagged:
    seat: int
    type: str


class Suit(enum.IntEnum):
    CLUBS = 0
    HEARTS = 2


@dataclass(frozen=True)
class Mixed:
    """Every kind of field ``to_wire`` treats differently: taken as it is, or walked."""

    board: tuple[tuple[int, ...], ...]
    names: tuple[str | None, ...]
    suit: Suit
    one: PlaceChip
    many: tuple[PlaceChip, ...]
    maybe: Inner | None
    loose: Any
    table: dict[str, Any] = field(default_factory=dict)
    pair: tuple[int, Inner] | None = None


@dataclass(frozen=True, slots=True)
class Slotted:  # no __dict__: read field by field
    seat: int
    type: str  # a field named "type" takes the tag's value, in the tag's place


def test_wire_encoding_is_the_codecs_json() -> None:
    chip = PlaceChip("JD", 3, 4, True, ((1, 2),), Inner("AS"))
    samples = [
        Mixed(((1, -1), (0, 2)), ("a", None), Suit.HEARTS, chip, (chip, PlaceChip("2C", 0, 0)),
              None, (Inner("KH"), [Inner("QS")]), {"x": Inner("9D"), "y": (1, 2)}, (5, Inner("TC"))),
        Mixed((), (), Suit.CLUBS, chip, (), Inner("AH"), 7),
        (chip, Inner("KD")),
        (Slotted(1, "place"), Tagged(2, "remove")),
        [],
        None,
    ]
    memo: dict[int, Any] = {}  # values shared between objects are walked once
    for x in samples + samples:
        assert json.dumps(to_wire(x)) == json.dumps(to_data(x)) == json.dumps(to_wire(x, memo))
    assert any(v is samples[0].many for v, _ in memo.values())
    # Fields that cannot hold a dataclass are handed over unwalked (the point of it).
    assert json.dumps(to_wire(Tagged(2, "remove"))) == '{"type": "remove", "seat": 2}'
    wired = to_wire(samples[0])
    assert wired["board"] is samples[0].board and wired["one"]["type"] == "place_chip"
    assert wired["loose"] == [{"type": "inner", "card": "KH"}, [{"type": "inner", "card": "QS"}]]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "place_chip", "card": "JD", "row": "3", "col": 4}, "row: expected an integer"),
        ({"type": "place_chip", "card": "JD", "row": True, "col": 4}, "row: expected an integer"),
        ({"type": "place_chip", "card": "JD", "row": 3}, "missing field 'col'"),
        ({"type": "place_chip", "card": "JD", "row": 3, "col": 4, "x": 1}, "unknown field 'x'"),
        ({"type": "nope"}, "unknown type 'nope'"),
        ({"card": "JD"}, "missing 'type'"),
        ([], "expected an object"),
        ({"type": "place_chip", "card": "JD", "row": 1, "col": 1, "cells": [[1]]}, "expected 2 items"),
    ],
)
def test_codec_refuses_bad_data(data: object, message: str) -> None:
    with pytest.raises(CodecError, match=message):
        Registry([PlaceChip]).decode(data)


def test_options_are_checked_by_name_with_allowed_values() -> None:
    info = GameInfo("g", "G", (2, 4), 2, "1", "s", "t", (
        Option("deck", "choice", "24", "deck size", choices=("24", "32")),
        Option("alone", "bool", True, "going alone"),
        Option("target", "int", 10, "points to win", minimum=5, maximum=15),
    ))
    assert info.parse_options({}) == {"deck": "24", "alone": True, "target": 10}
    assert info.parse_options({"alone": "off", "target": "11"}) == {
        "deck": "24", "alone": False, "target": 11}
    with pytest.raises(OptionError, match=r"'colour': unknown option \(allowed: deck, alone, target\)"):
        info.parse_options({"colour": 1})
    with pytest.raises(OptionError, match=r"'deck'.*\(allowed: 24, 32\)"):
        info.parse_options({"deck": "36"})
    with pytest.raises(OptionError, match=r"'target': 20 is out of range \(allowed: integer 5..15\)"):
        info.parse_options({"target": 20})
    with pytest.raises(OptionError, match="'alone': expected true or false"):
        info.parse_options({"alone": 3})
    with pytest.raises(OptionError, match=r"'players'.*\(allowed: 2, 4\)"):
        info.check_players(3)
    assert parse_assignments(["a=1", "b = x"]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError, match="KEY=VALUE"):
        parse_assignments(["novalue"])


def test_illegal_actions_raise_and_change_nothing() -> None:
    m = Match.start(toygame.GAME, 2, {}, seed=3)
    state, steps = m.state, list(m.steps)
    other = 1 - m.to_act()[0]
    with pytest.raises(IllegalAction) as e:
        m.act(other, m.legal(m.to_act()[0])[0])
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as e:
        m.act(m.to_act()[0], toygame.Play("ZZ"))
    assert e.value.code == "illegal_action"
    with pytest.raises(IllegalAction) as e:
        m.decode_action({"type": "play"})
    assert e.value.code == "bad_action"
    assert m.state is state and m.steps == steps


def test_unknown_game_names_the_catalogue() -> None:
    with pytest.raises(OptionError, match="unknown game 'bridge'"):
        registry.get("bridge")


def test_chance_is_deterministic_from_seed() -> None:
    a = Match.start(toygame.GAME, 3, {}, seed=5)
    b = Match.start(toygame.GAME, 3, {}, seed=5)
    c = Match.start(toygame.GAME, 3, {}, seed=6)
    assert a.steps == b.steps
    assert a.steps != c.steps


def finished_toy(seed: int) -> Match:
    return play_random(toygame.GAME, seed, 2, deep=True)


def test_record_replays_and_reports_first_illegal_step() -> None:
    m = finished_toy(1)
    rec = json.loads(json.dumps(to_record(m, [{"name": "a", "controller": "human"}] * 2)))
    assert rec["format"] == "tablebox.record" and rec["outcome"]["type"] == "outcome"
    assert replay(rec).valid
    bad = json.loads(json.dumps(rec))
    bad["steps"][2]["action"]["card"] = "QS" if bad["steps"][2]["action"]["card"] != "QS" else "JS"
    result = replay(bad)
    assert not result.valid
    assert result.error is not None and result.error.index == 2
    assert result.error.code == "illegal_action"
    assert result.steps == 2
    report = result.report()
    assert report["valid"] is False and report["error"]["index"] == 2
    assert report["to_act"] and str(report["to_act"][0]) in report["legal"]


def test_record_pins_the_deal_by_hand() -> None:
    deck = list(toygame.DECK)  # unshuffled: seat 0 gets AS 2S, seat 1 gets 3S 4S
    rec = {
        "format": "tablebox.record", "version": 1, "game": "toy", "players": 2, "options": {},
        "steps": [
            {"chance": {"type": "deal", "deck": deck}},
            {"seat": 0, "action": {"type": "play", "card": "AS"}},
            {"seat": 1, "action": {"type": "play", "card": "4S"}},
        ],
    }
    result = replay(rec)
    assert result.valid
    assert result.match.view(0).hand == ("2S",)
    assert result.match.view(1).hand == ("3S",)
    rec["steps"][0]["chance"]["deck"] = [*deck[:-1], "AS"]
    result = replay(rec)
    assert result.error is not None and (result.error.index, result.error.code) == (0, "bad_chance")


def test_record_without_chance_steps_draws_from_seed() -> None:
    m = finished_toy(2)
    rec = to_record(m)
    rec["steps"] = [s for s in rec["steps"] if "chance" not in s]
    assert replay(rec).valid
    del rec["seed"]
    result = replay(rec)
    assert result.error is not None and result.error.code == "chance_pending"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "JSON object"),
        ({"format": "x"}, "not a tablebox record"),
        ({"format": "tablebox.record", "version": 9}, "unsupported record version"),
        ({"format": "tablebox.record", "version": 1, "game": "toy", "rules_version": "0"}, "rules 0"),
        ({"format": "tablebox.record", "version": 1, "game": "toy", "steps": {}}, "'steps'"),
    ],
)
def test_malformed_records_raise_record_error(record: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(record)  # type: ignore[arg-type]


def test_outcome_mismatch_is_reported() -> None:
    rec = to_record(finished_toy(3))
    rec["outcome"]["reason"] = "forged"
    result = replay(rec)
    assert result.error is not None and result.error.code == "outcome_mismatch"


def test_toy_game_passes_conformance() -> None:
    for seed in range(50):
        play_random(toygame.GAME, seed, 2 + seed % 3, deep=seed < 10)


def test_a_leaking_view_is_caught() -> None:
    """The invariance check must fail for a view that shows another seat's hand."""
    from tests.engine.conformance import check_view_invariance

    class Leaky(toygame.ToyGame):
        def view(self, state, seat):  # type: ignore[no-untyped-def]
            v = super().view(state, seat)
            return (v, state.hands)

    m = Match.start(toygame.GAME, 2, {}, seed=1)
    import random

    with pytest.raises(AssertionError, match="depends on hidden state"):
        check_view_invariance(Leaky(), m.state, 2, random.Random(0))


def test_errors_survive_pickling() -> None:
    """Errors cross process boundaries (the host's AI worker pool)."""
    import pickle

    o = pickle.loads(pickle.dumps(OptionError("deck", "bad", ("24", "32"))))
    assert (o.option, o.message, tuple(o.allowed), str(o)) == (
        "deck", "bad", ("24", "32"), "option 'deck': bad (allowed: 24, 32)")
    i = pickle.loads(pickle.dumps(IllegalAction("not_your_turn", "wait")))
    assert (i.code, i.detail) == ("not_your_turn", "wait")
