"""What backgammon sends: views hide only the seed (and no future roll exists), hold the pip
counts, stay the same whatever the seed is, keep every legal list far under 8 KiB, and every
caption key the engine sends is in the string catalogue in English, French and Arabic."""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine.backgammon import GAME, PLAYERS
from engine.backgammon.views import BackgammonView
from engine.codec import to_data, to_wire
from engine.match import Match
from tests.engine.backgammon.scenario import place, roll, start

ROOT = Path(__file__).resolve().parents[3]


def _played(seed: int, options: dict[str, object]) -> list[Match]:
    """Snapshots of a normal-vs-easy game at every step."""
    m = Match.start(GAME, 2, options, seed=seed)
    rng = random.Random(seed)
    out = []
    while m.outcome() is None:
        out.append(m)
        seat = m.to_act()[0]
        level = "normal" if seat == 0 else "easy"
        m2 = Match.start(GAME, 2, options, seed=seed)
        m2.state, m2.steps = m.state, list(m.steps)
        m2.act(seat, PLAYERS[level].choose(m2.view(seat), m2.legal(seat), rng))
        m2.resolve_chance()
        m = m2
    return out


def test_views_do_not_depend_on_the_seed_and_hold_no_seed() -> None:
    for m in _played(11, {"beavers": True})[:120]:
        other = m.state._replace(seed=m.state.seed + 12345)
        for seat in (None, 0, 1):
            a = json.dumps(to_data(GAME.view(m.state, seat)))
            assert a == json.dumps(to_data(GAME.view(other, seat)))
            assert "seed" not in a


def test_legal_lists_stay_small() -> None:
    worst = 0
    for m in _played(4, {}):
        for seat in (0, 1):
            worst = max(worst, len(json.dumps(to_wire(m.legal(seat)), separators=(",", ":"))))
    assert 0 < worst < 8 * 1024, worst


def test_view_pin_after_a_pinned_opening() -> None:
    m = start()
    m.apply_chance(__import__("engine.backgammon.state", fromlist=["Dice"]).Dice(3, 1))
    v = m.view(1)
    assert isinstance(v, BackgammonView)
    assert (v.phase, v.turn, v.dice, v.left, v.pips, v.cube, v.owner) == (
        "move", 0, (3, 1), (3, 1), (167, 167), 1, None)
    c = GAME.common(v)
    assert [x.key for x in c.captions] == ["backgammon.game", "backgammon.pips",
                                          "backgammon.cube", "backgammon.rolled"]


def test_pip_counts_follow_the_moves() -> None:
    m = start()
    place(m, {6: 2, 19: -2})
    roll(m, 3, 1)
    assert m.view(None).pips == (12, 12)


def test_every_key_the_engine_sends_is_in_every_language() -> None:
    keys: set[str] = set()
    for m in _played(2, {"mode": "match", "length": 3}):
        for seat in (None, 0, 1):
            c = GAME.common(m.view(seat))
            for cap in (*c.captions, *([c.last] if c.last else [])):
                keys.add(cap.key)
                keys |= {v for _, v in cap.args if isinstance(v, str)}
    keys |= {"backgammon.won_match", "backgammon.most_points", "backgammon.equal_points",
             "backgammon.kind.single", "backgammon.kind.gammon", "backgammon.kind.backgammon",
             "backgammon.kind.passed"}
    keys |= {f"backgammon.action.{a}" for a in
             ("move", "undo", "confirm", "roll", "double", "take", "pass", "beaver")}
    for lang in ("en", "fr", "ar"):
        path = ROOT / "clients" / "strings" / "backgammon" / f"{lang}.json"
        strings = json.loads(path.read_text(encoding="utf-8"))
        assert sorted(keys - set(strings)) == [], lang


def test_same_rolls_under_another_seed_send_the_same_bytes_at_every_step() -> None:
    """A whole game replayed under another seed, its rolls pinned to the same dice, sends
    every seat and the spectator the very same bytes at every step: nothing a seat receives
    depends on the seed, so nothing it receives can predict a roll. The two seeds do roll
    differently (the next roll is not the same for most steps)."""
    from engine.match import ActionStep, ChanceStep
    from tests.engine.conformance import encode

    played = _played(21, {"mode": "match", "length": 3})[-1]
    twin = Match.start(GAME, 2, {"mode": "match", "length": 3}, seed=987654, resolve=False)
    original = Match.start(GAME, 2, {"mode": "match", "length": 3}, seed=21, resolve=False)
    differ = rolls = 0
    for step in played.steps:
        if isinstance(step, ChanceStep):
            rolls += 1
            differ += GAME.chance_outcome(twin.state) != step.outcome
            twin.apply_chance(step.outcome)
            original.apply_chance(step.outcome)
        else:
            assert isinstance(step, ActionStep)
            twin.act(step.seat, step.action)
            original.act(step.seat, step.action)
        for seat in (None, 0, 1):
            assert encode(twin.view(seat)) == encode(original.view(seat))
    assert rolls > 20 and differ > rolls // 2


def test_refusals_say_the_same_whatever_the_seed() -> None:
    """Every refusal (its code and its words) over a played game is the same under another
    seed: an error tells a seat nothing a view does not, so no roll can be read from one."""
    from engine.backgammon import state as st
    from engine.errors import IllegalAction

    tries = (st.Move(24, 18, 6), st.Move(1, 0, 1), st.Move(25, 30, 5), st.UNDO, st.CONFIRM,
             st.ROLL_ACTION, st.DOUBLE, st.TAKE, st.PASS, st.BEAVER, "garbage")
    seen = 0
    for m in _played(8, {"beavers": True})[:80]:
        other = m.state._replace(seed=m.state.seed + 777_777)
        for seat in (0, 1):
            for action in tries:
                said: list[tuple[str, str] | None] = []
                for state in (m.state, other):
                    try:
                        GAME.apply(state, seat, action)
                        said.append(None)
                    except IllegalAction as e:
                        said.append((e.code, str(e)))
                        assert str(state.seed) not in str(e)
                assert said[0] == said[1]
                seen += said[0] is not None
        for state in (m.state, other):  # a bad chance outcome is refused the same way too
            try:
                GAME.apply_chance(state, st.Dice(7, 0))
            except IllegalAction as e:
                assert str(state.seed) not in str(e)
    assert seen > 500
