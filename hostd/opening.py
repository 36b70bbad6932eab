"""Tables players open from their phones: what may be opened, and the checks before it is.

Owns the ``games`` answer (the catalogue a player may open from: each game's seat counts and
typed options, the turn-timer choices, and whether opening is possible now) and the rules an
``open`` passes before a table is made: ``player_tables`` on, fewer than ``max_tables``
tables open, the box not draining, one table at a time per connection, a turn timer among
the offered choices, names that are not empty once cleaned, and one opened table at a time
for each person: whoever holds the opener's seat of a table a player opened (on any
connection: a reload or a reconnect resumes that seat) cannot open another until they leave. The game, its seat count and
its options are checked by ``Hub.create_table``, the same path as ``tablebox tables new``:
there is no second validation of options here, only the translation of its ``OptionError``
into stable protocol codes.

Never: create a table that a refusal then leaves behind (every check is made before it is
created, and the opener's seat is taken at once by the table's own runner, like a join); let
two opens race past the cap (one lock per hub); send anything but the public catalogue.
"""

from __future__ import annotations

import trio

from engine import registry
from engine.errors import OptionError
from hostd.protocol import codes
from hostd.protocol.messages import Catalogue, GameOffer, Join, Open, OptionSpec
from hostd.tables.core import Reject, clean_name
from hostd.tables.hub import Hub
from hostd.tables.runner import Request, TableRunner

# The turn timers a player may choose, in seconds (0: none); the box's own default is
# accepted too, so a café that set turn_timer = 45 can still open tables with it.
TURN_TIMERS = (0, 30, 60, 120)

# The opener sits at seat 0: a new table has no person yet, so it is the first free seat.
OPENER_SEAT = 0


class _Opening:
    """Per hub: the lock that keeps the cap whole, and the tables players opened (in memory:
    after a restart a table's opener may open again, which the cap still bounds)."""

    def __init__(self) -> None:
        self.lock = trio.Lock()
        self.opened: set[str] = set()


_by_hub: dict[int, _Opening] = {}  # by id(hub): a Hub is a dataclass, so not hashable


def _state(hub: Hub) -> _Opening:
    return _by_hub.setdefault(id(hub), _Opening())


def still_at_own_table(hub: Hub, conn_id: int, at_tables: set[str]) -> str | None:
    """A table a player opened at whose opener's seat this connection sits, if any."""
    for table in sorted(_state(hub).opened & at_tables):
        runner = hub.tables.get(table)
        if runner is not None and runner.core.status != "closed" \
                and runner.core.seat_of(conn_id) == OPENER_SEAT:
            return table
    return None


def timer_choices(hub: Hub) -> list[int]:
    default = int(hub.config.turn_timer)
    return sorted({*TURN_TIMERS, default})


def open_tables(hub: Hub) -> int:
    """Tables that count against ``max_tables``: every one not closed, however made."""
    return len(hub.list_tables(seats=False))


def refusal(hub: Hub) -> Reject | None:
    """Why no table may be opened here now, or None."""
    if not hub.config.player_tables:
        return Reject(codes.OPEN_OFF)
    if hub.draining:
        return Reject(codes.DRAINING)
    if open_tables(hub) >= hub.config.max_tables:
        return Reject(codes.TOO_MANY_TABLES, {"max": hub.config.max_tables})
    return None


def catalogue(hub: Hub, re: int | None) -> Catalogue:
    """The answer to ``games``. The games are listed even when opening is off (a client may
    show them); ``open`` and ``refusal`` say whether an ``open`` would be refused now."""
    why = refusal(hub)
    games = []
    for g in registry.all_games():
        info = g.info
        games.append(GameOffer(
            id=info.id, title=info.title, players=list(info.players),
            default_players=info.default_players,
            options=[OptionSpec(name=o.name, kind=o.kind, default=o.default,
                                choices=list(o.choices), minimum=o.minimum, maximum=o.maximum,
                                nullable=o.nullable) for o in info.options]))
    return Catalogue(re=re, open=why is None, refusal=why.code if why is not None else "",
                     games=games, turn_timers=timer_choices(hub),
                     turn_timer=int(hub.config.turn_timer), open_tables=open_tables(hub),
                     max_tables=hub.config.max_tables)


def _option_reject(e: OptionError, game: str) -> Reject:
    if e.option == "game":
        return Reject(codes.UNKNOWN_GAME, {"game": game[:40]})
    allowed = e.allowed if isinstance(e.allowed, str) else ", ".join(str(a) for a in e.allowed)
    # The option name came from the peer when it is unknown: cut it, it is echoed back.
    return Reject(codes.BAD_OPTION, {"option": e.option[:40], "reason": e.message[:120],
                                     "allowed": allowed[:200]})


async def open_table(hub: Hub, conn_id: int, msg: Open, at_tables: set[str]) -> TableRunner:
    """Create the table ``msg`` asks for and post the opener's join to it; Reject otherwise.

    ``at_tables`` are the tables the connection is at now. A person still in the opener's
    seat of a table cannot open another: one phone cannot fill the box in a loop, and a
    person plays one game they opened at a time.
    """
    player = clean_name(msg.player)
    if not player:
        raise Reject(codes.BAD_NAME, {"field": "player"})
    table_name = clean_name(msg.name)
    if msg.name.strip() and not table_name:
        raise Reject(codes.BAD_NAME, {"field": "name"})
    choices = timer_choices(hub)
    if msg.turn_timer is not None and msg.turn_timer not in choices:
        raise Reject(codes.BAD_TIMER, {"allowed": ", ".join(map(str, choices))})
    still = still_at_own_table(hub, conn_id, at_tables)
    if still is not None:
        raise Reject(codes.OPEN_LIMIT, {"table": still})
    state = _state(hub)
    async with state.lock:  # the cap is checked and the table made with no open between
        why = refusal(hub)
        if why is not None:
            raise why
        try:
            runner = await hub.create_table(
                msg.game, players=msg.players, options=dict(msg.options), name=table_name,
                turn_timer=None if msg.turn_timer is None else float(msg.turn_timer))
        except OptionError as e:
            raise _option_reject(e, msg.game) from None
    state.opened.add(runner.id)
    # The seat is taken by the table's runner exactly as a join is: ``joined`` and the state
    # answer the open's id. The table was made a moment ago with AI in every seat, so the
    # opener's seat is free; the name is clean.
    join = Join(id=msg.id, code=runner.core.meta.code, name=player, seat=OPENER_SEAT)
    runner.post(Request(conn_id, "join", join))
    return runner

