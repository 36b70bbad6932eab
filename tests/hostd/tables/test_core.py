"""The pure table core, without a loop: seats, tokens, versions, two-phase changes, replay."""

from __future__ import annotations

from typing import Any

import pytest

from engine.codec import to_data
from engine.records import replay
from hostd.protocol import codes
from hostd.protocol.messages import Joined, Notice, State, host_decoder
from hostd.tables.core import Change, Effects, Reject, TableCore, TableMeta, clean_name, hash_token


def make(players: int = 3, seed: int = 5, levels: tuple[str, ...] = ("random",)
         ) -> tuple[TableCore, list[tuple[str, dict[str, Any]]]]:
    meta = TableMeta("1", "ABCD", "t", "toy", players, {}, seed)
    core, events = TableCore.create(meta, levels)
    return core, list(events)


def commit(core: TableCore, change: Change, log: list[tuple[str, dict[str, Any]]]) -> Effects:
    log.extend(change.events)
    return change.commit()


def frames(core: TableCore, effects: Effects) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = {}
    for conn, frame in core.render(effects):
        out.setdefault(conn, []).append(host_decoder.decode(frame))
    return out


def test_create_deals_and_every_seat_is_ai() -> None:
    core, events = make()
    assert core.version == 1 and not core.chance_pending()
    assert [k for k, _ in events] == ["level", "level", "level", "step"]
    assert all(s.ai_plays for s in core.seats)
    assert core.ai_turns() == [], "an unattended table waits"
    core.spectate(7)
    assert core.ai_turns() == [0]


def test_join_is_two_phase_and_only_the_joiner_gets_the_token() -> None:
    core, log = make()
    core.spectate(9)
    change = core.join(1, "  Ana\x07  Maria ", None, "secret-token", re=4)
    assert core.seats[0].occupant is None, "nothing changes before commit"
    effects = commit(core, change, log)
    assert core.seats[0].occupant is not None and core.seats[0].occupant.name == "Ana Maria"
    assert log[-1] == ("seat", {"seat": 0, "name": "Ana Maria", "token": hash_token("secret-token")})
    out = frames(core, effects)
    joined = [m for m in out[1] if isinstance(m, Joined)]
    assert joined == [Joined(re=4, table="1", seat=0, token="secret-token")]
    raw_spectator = b"".join(f for c, f in core.render(effects) if c == 9)
    assert b"secret-token" not in raw_spectator
    states = {c: [m for m in ms if isinstance(m, State)] for c, ms in out.items()}
    assert states[1][0].seat == 0 and states[1][0].legal
    assert states[9][0].seat is None and states[9][0].legal == []


@pytest.mark.parametrize(("name", "seat", "code"), [
    ("", None, codes.BAD_NAME), ("\x00\x01", None, codes.BAD_NAME),
    ("Bo", 7, codes.NO_SUCH_SEAT), ("Bo", -1, codes.NO_SUCH_SEAT),
])
def test_join_refusals(name: str, seat: int | None, code: str) -> None:
    core, _ = make()
    with pytest.raises(Reject) as e:
        core.join(1, name, seat, "t")
    assert e.value.code == code


def test_seat_taken_full_and_already_seated() -> None:
    core, log = make(players=2)
    commit(core, core.join(1, "A", 1, "t1"), log)
    with pytest.raises(Reject, match=codes.SEAT_TAKEN):
        core.join(2, "B", 1, "t2")
    with pytest.raises(Reject, match=codes.ALREADY_SEATED):
        core.join(1, "A", None, "t3")
    commit(core, core.join(2, "B", None, "t2"), log)
    with pytest.raises(Reject, match=codes.TABLE_FULL):
        core.join(3, "C", None, "t4")


def test_resume_takes_over_and_tells_the_old_connection() -> None:
    core, log = make()
    commit(core, core.join(1, "A", None, "tok"), log)
    change, previous = core.resume(2, hash_token("tok"), re=3)
    assert previous == 1
    effects = commit(core, change, log)
    assert core.watchers == {2: 0} and effects.detached == [1]
    out = frames(core, effects)
    assert [m.text.key for m in out[1] if isinstance(m, Notice)] == ["notice.taken_over"]
    assert any(isinstance(m, Joined) and m.token == "" and m.re == 3 for m in out[2])
    with pytest.raises(Reject, match=codes.BAD_TOKEN):
        core.resume(3, hash_token("wrong"))


def test_intent_checks_in_order_and_change_nothing() -> None:
    core, log = make()
    commit(core, core.join(1, "A", 0, "tok"), log)
    core.spectate(5)
    core.state(0)  # what seat 0 was shown
    legal = to_data(core.match.legal(0)[0])
    before = (core.version, core.match.state)
    cases = [
        (5, core.version, legal, None, codes.NOT_SEATED),
        (9, core.version, legal, None, codes.NOT_SEATED),
        (1, core.version, legal, 2, codes.WRONG_SEAT),
        (1, core.version + 1, legal, None, codes.STALE_VERSION),
        (1, core.version - 1, legal, None, codes.STALE_VERSION),
        (1, core.version, {"type": "nope"}, None, codes.BAD_ACTION),
        (1, core.version, {"type": "play", "card": "XX"}, None, codes.ILLEGAL_ACTION),
    ]
    for conn, version, action, seat, code in cases:
        with pytest.raises(Reject) as e:
            core.intent(conn, version, action, seat)
        assert e.value.code == code, (conn, version, action, seat)
        assert (core.version, core.match.state) == before
    commit(core, core.intent(1, core.version, legal, 0), log)
    assert core.version == before[0] + 1
    core.state(0)
    card = core.match.view(0).hand[0]
    with pytest.raises(Reject, match=codes.NOT_YOUR_TURN):
        core.intent(1, core.version, {"type": "play", "card": card})


def test_an_unchanged_view_keeps_an_older_version_valid() -> None:
    """Staleness is per seat: only a change to what that seat sees makes it stale."""
    core, log = make()
    commit(core, core.join(1, "A", 0, "tok"), log)
    core.state(0)
    v = core.version
    # Pretend a step happened that seat 0 cannot see: bump the version, same view and legal.
    core.base += 1
    core.state(0)
    assert core.version == v + 1
    commit(core, core.intent(1, v, to_data(core.match.legal(0)[0])), log)


def test_replay_rebuilds_the_same_table() -> None:
    core, log = make(players=3)
    commit(core, core.join(1, "A", 1, "tok"), log)
    while core.status == "playing":
        seat = core.to_act()[0]
        action = core.match.legal(seat)[0]
        change = (core.intent(1, core.version, to_data(action)) if seat == 1
                  else core.ai_step(seat, core.version, action))
        if seat == 1:
            core.state(1)
        commit(core, change, log)
    assert log[-1] == ("status", {"status": "finished"})
    again = TableCore.restore(TableMeta("1", "ABCD", "t", "toy", 3, {}, 5), log)
    assert again.version == core.version and again.status == "finished"
    assert again.match.state == core.match.state
    assert again.seats[1].occupant is not None and again.seats[1].occupant.conn is None
    assert again.find_token(hash_token("tok")) == 1


def test_record_of_unfinished_game_leaves_out_seed_and_hand_in_play() -> None:
    core, _ = make()
    rec = core.record()
    assert "seed" not in rec and rec["steps"] == [] and rec["in_progress"]
    assert replay(rec).valid
    full = core.record(secret=True)
    assert full["seed"] == 5 and len(full["steps"]) == 1


def test_rematch_needs_everyone_connected_then_starts_a_new_game() -> None:
    core, log = make(players=2)
    commit(core, core.join(1, "A", 0, "a"), log)
    commit(core, core.join(2, "B", 1, "b"), log)
    with pytest.raises(Reject, match=codes.NOT_FINISHED):
        core.rematch(1, 99)
    while core.status == "playing":
        seat = core.to_act()[0]
        core.state(seat)
        commit(core, core.intent(seat + 1, core.version, to_data(core.match.legal(seat)[0])), log)
    first = core.record()
    assert first["seed"] == 5 and first["outcome"] is not None
    old_version = core.version
    asked = core.rematch(1, 99)
    assert asked.events == []
    commit(core, asked, log)
    started = core.rematch(2, 99)
    assert started.events[0] == ("rematch", {"seed": 99})
    commit(core, started, log)
    assert core.status == "playing" and core.game_no == 2 and core.version > old_version
    assert core.record(game=1) == first
    again = TableCore.restore(TableMeta("1", "ABCD", "t", "toy", 2, {}, 5), log)
    assert again.version == core.version and again.match.state == core.match.state
    assert again.record(game=1) == first


def test_leave_kick_and_level() -> None:
    core, log = make()
    commit(core, core.join(1, "A", 0, "a"), log)
    effects = commit(core, core.leave(1, re=8), log)
    assert core.seats[0].occupant is None and effects.detached == [1]
    assert any(isinstance(m, Notice) and m.re == 8 for m in frames(core, effects)[1])
    commit(core, core.join(2, "B", 2, "b"), log)
    commit(core, core.kick(2), log)
    assert core.seats[2].occupant is None and 2 not in core.watchers
    with pytest.raises(Reject, match=codes.NOT_SEATED):
        core.kick(2)
    commit(core, core.join(3, "C", 1, "c"), log)
    commit(core, core.set_level(1, "hard"), log)
    assert core.seats[1].occupant is None and core.seats[1].level == "hard"
    again = TableCore.restore(TableMeta("1", "ABCD", "t", "toy", 3, {}, 5), log)
    assert [s.level for s in again.seats] == ["random", "hard", "random"]
    assert all(s.occupant is None for s in again.seats)


def test_disconnect_then_cover_then_resume_hands_back() -> None:
    core, log = make()
    commit(core, core.join(1, "A", 0, "a"), log)
    commit(core, core.join(3, "B", 1, "b"), log)  # B stays connected: the table plays on
    effects, seat = core.disconnect(1)
    assert seat == 0 and effects.broadcast and not core.seats[0].ai_plays
    assert core.cover(0).sends and core.seats[0].ai_plays
    assert core.ai_turns() == [0] and not core.paused()
    change, previous = core.resume(2, hash_token("a"))
    assert previous is None
    commit(core, change, log)
    assert not core.seats[0].ai_plays and core.ai_turns() == []


def test_a_table_whose_people_are_all_away_is_paused() -> None:
    core, log = make()
    core.spectate(9)
    commit(core, core.join(1, "A", 0, "a"), log)
    core.disconnect(1)
    core.cover(0)
    # Covered, and a spectator watches: still nobody to play for, so nothing moves.
    assert core.paused() and core.ai_turns() == []
    assert core.summary().paused and core.state(None).paused
    change, _ = core.resume(2, hash_token("a"))
    commit(core, change, log)
    assert not core.paused() and not core.summary().paused


def test_release_gives_an_away_seat_back_to_the_computer() -> None:
    core, log = make()
    core.spectate(9)
    commit(core, core.join(1, "A", 0, "a"), log)
    assert core.release(0, hash_token("a")) is None, "she is connected"
    core.disconnect(1)
    assert core.release(0, hash_token("other")) is None, "not her seat any more"
    change = core.release(0, hash_token("a"))
    assert change is not None and change.events == [("seat", {"seat": 0, "name": None})]
    assert core.seats[0].occupant is not None, "nothing changes before commit"
    effects = commit(core, change, log)
    assert core.seats[0].occupant is None and core.free_seats() == 3 and not core.paused()
    texts = [m.text for m in frames(core, effects)[9] if isinstance(m, Notice)]
    assert [(t.key, t.args) for t in texts] == [("notice.seat_released", {"seat": 0, "name": "A"})]
    assert core.find_token(hash_token("a")) is None
    again = TableCore.restore(TableMeta("1", "ABCD", "t", "toy", 3, {}, 5), log)
    assert again.seats[0].occupant is None


def test_clean_name() -> None:
    assert clean_name("  a\tb\n c ") == "a b c"
    assert len(clean_name("x" * 100)) == 24
