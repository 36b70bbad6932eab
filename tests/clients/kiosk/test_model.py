"""What the kiosk keeps from the host's messages, and which tables it puts on screen."""

from __future__ import annotations

import itertools

import msgspec

from clients.kiosk.model import DWELL, ROTATE, Model
from hostd.protocol.messages import SeatSummary, State, TableSummary, Welcome

SEATS = [SeatSummary(seat=i, name=f"P{i}", controller="ai", level="easy", connected=True,
                     covered=False, team=i % 2) for i in range(4)]


def summary(table: str, status: str = "playing") -> TableSummary:
    return TableSummary(id=table, code=f"C{table}", name=f"N{table}", game="euchre",
                        title="Euchre", players=4, free_seats=4, status=status,  # type: ignore[arg-type]
                        seats=SEATS)


def state(table: str, version: int, deadline: float | None = None) -> State:
    return State(table=table, game="euchre", version=version, seat=None, view={"type": "v"},
                 legal=[], to_act=[version % 4], seats=SEATS, deadline=deadline,
                 code=f"C{table}", name=f"N{table}")


def model(*tables: str) -> Model:
    m = Model("box")
    m.link_up(Welcome(join_urls=["http://10.0.0.2:8080/"]), 0.0)
    m.on_tables([summary(t) for t in tables], 0.0)
    return m


def test_tables_follow_the_hosts_list() -> None:
    m = model("a", "b")
    assert m.watched() == ["a", "b"]
    m.on_tables([summary("b"), summary("c", "closed")], 1.0)
    assert m.watched() == ["b"]  # a is gone, a closed table is not shown


def test_a_pinned_table_is_the_only_one_by_id_or_code() -> None:
    m = Model("box", pinned="Cb")
    m.on_tables([summary("a"), summary("b")], 0.0)
    assert m.watched() == ["b"]
    m.on_state(state("a", 3), 0.0)
    assert m.watched() == ["b"]


def test_states_are_kept_newest_first_and_time_their_moves() -> None:
    m = model("a")
    m.on_state(state("a", 5, deadline=30.0), 10.0)
    entry = m.tables["a"]
    assert entry.moved_at == 10.0 and entry.seconds_left(12.0) == 28.0
    m.on_state(state("a", 4), 11.0)  # late and older: ignored
    assert entry.state is not None and entry.state.version == 5
    m.on_state(state("a", 5, deadline=20.0), 12.0)  # same version (a seat change): no move
    assert entry.moved_at == 10.0 and entry.seconds_left(12.0) == 20.0
    m.link_down(13.0)
    assert entry.seconds_left(13.0) is None  # no timer runs while the host is away
    assert m.link == "down" and entry.state.version == 5  # the last picture is kept


def test_join_link_is_the_first_ip_literal_url_with_the_code() -> None:
    m = model("a")
    assert m.join_url(m.tables["a"]) == "http://10.0.0.2:8080/?code=Ca"
    m.join_urls = []
    assert m.join_url(m.tables["a"]) is None


def test_all_tables_show_when_they_fit_in_the_hosts_order() -> None:
    m = model("a", "b", "c")
    for i, t in enumerate("cab"):
        m.on_state(state(t, 1), float(i))
    assert [e.id for e in m.select(4, 5.0)] == ["a", "b", "c"]


def test_the_table_that_moved_comes_on_screen_after_a_dwell() -> None:
    m = model("a", "b")
    m.on_state(state("a", 1), 0.0)
    m.on_state(state("b", 1), 0.0)
    assert [e.id for e in m.select(1, 0.0)] == ["a"]
    m.on_state(state("b", 2), 1.0)
    assert [e.id for e in m.select(1, 1.0)] == ["a"]  # a has not been up long enough
    assert [e.id for e in m.select(1, DWELL + 0.1)] == ["b"]
    m.on_state(state("b", 3), DWELL + 1)  # b keeps moving: it stays
    assert [e.id for e in m.select(1, 2 * DWELL + 2)] == ["b"]


def test_busy_tables_take_turns() -> None:
    m = model("a", "b")
    shown = []
    now = 0.0
    version = 0
    while now < 60:
        version += 1
        m.on_state(state("b", version), now)  # b always moves first...
        m.on_state(state("a", version), now + 0.5)  # ...and a just after it
        shown.append(m.select(1, now + 0.6)[0].id)
        now += 1.0
    assert shown.count("a") > 10 and shown.count("b") > 10


def test_calm_tables_rotate() -> None:
    m = model("a", "b", "c")
    for t in "abc":
        m.on_state(state(t, 1), 0.0)
    seen = []
    now = 0.0
    for _ in range(6):
        seen.append(m.select(1, now)[0].id)
        now += ROTATE + 0.1
    assert set(seen) == {"a", "b", "c"}
    assert all(x != y for x, y in itertools.pairwise(seen))


def test_the_freshest_table_is_the_one_that_just_moved() -> None:
    m = model("a", "b")
    m.on_state(state("a", 1), 0.0)
    m.on_state(msgspec.structs.replace(state("b", 1)), 1.0)
    assert m.freshest(1.5) == "b"
    assert m.freshest(10.0) is None


def test_a_games_descriptor_is_learnt_once_for_all_its_tables() -> None:
    m = model("a")
    assert m.tables["a"].presentation is None  # nothing sent yet: the generic picture
    m.on_state(state("a", 1), 1.0)
    before = m.revision
    m.learn("euchre", {"family": "trick_taking", "zones": []})
    assert m.revision > before
    assert m.tables["a"].presentation == {"family": "trick_taking", "zones": []}
    m.on_tables([summary("a"), summary("b")], 2.0)  # a table that comes later has it too
    assert m.tables["b"].presentation == {"family": "trick_taking", "zones": []}
    m.on_state(msgspec.structs.replace(state("c", 1), game="sequence"), 3.0)
    assert m.tables["c"].presentation is None  # another game's is not borrowed
