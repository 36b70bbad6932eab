"""What the kiosk knows: the link, the box, every watched table, and which ones are on screen.

The network task feeds it protocol messages (``on_welcome``, ``on_tables``, ``on_state``...);
the drawing code reads it. It keeps only what the host sent to a spectator (the public view,
its common part, the seat summaries, the outcome, each game's presentation descriptor), so the
screen can never show anything hidden. Times are
``time.monotonic()`` values passed in by the caller, which keeps this module pure and its
choices (rotation, following the table that moved) testable without waiting.

Pure: no pygame, no sockets, no clock of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from hostd.protocol.messages import (
    History,
    LogEntry,
    ScoreRow,
    SeatSummary,
    State,
    TableSummary,
    Text,
    Welcome,
)

LinkStatus = Literal["connecting", "up", "down"]

# A table that just moved replaces one on screen only once that one has been shown this long,
# so a busy table cannot make the screen flicker between tables.
DWELL = 6.0
# With more tables than fit and nothing moving, the screen moves on after this long.
ROTATE = 15.0
# A move this recent gets the "just moved" highlight.
FRESH = 2.0
# How long a reaction stays beside its seat.
REACTION_SHOWN = 5.0


@dataclass
class TableEntry:
    id: str
    code: str = ""
    name: str = ""
    game: str = ""
    title: str = ""
    status: str = "playing"
    seats: list[SeatSummary] = field(default_factory=list)
    state: State | None = None
    deadline_at: float | None = None  # when the turn timer runs out (monotonic)
    moved_at: float = 0.0
    shown_since: float | None = None  # on screen since (None: not on screen)
    last_shown: float = -1.0
    # The game's presentation descriptor (engine/presentation.py as data): its family picks
    # the renderer. None until the host has sent one for this game.
    presentation: dict[str, Any] | None = None
    # The public log and score sheet (the box's ``history`` answer, kept going from each
    # state's caption) and the reactions on show: seat -> (emote, shown until).
    log: list[LogEntry] = field(default_factory=list)
    rows: list[ScoreRow] = field(default_factory=list)
    teams: list[int] = field(default_factory=list)
    log_known: bool = False
    log_version: int = -1
    reactions: dict[int, tuple[str, float]] = field(default_factory=dict)

    @property
    def view(self) -> dict[str, Any] | None:
        return self.state.view if self.state is not None else None

    @property
    def common(self) -> dict[str, Any] | None:
        """The view's part every game shares (engine/presentation.py ``Common``), if sent."""
        return self.state.common if self.state is not None else None

    @property
    def to_act(self) -> list[int]:
        return list(self.state.to_act) if self.state is not None else []

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.state.outcome if self.state is not None else None

    def seat_name(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat:
                return s.name
        return ""

    def up_for(self, now: float) -> float:
        """How long the table has been on screen (0 when it is not)."""
        return 0.0 if self.shown_since is None else now - self.shown_since

    def seconds_left(self, now: float) -> float | None:
        if self.deadline_at is None:
            return None
        return max(0.0, self.deadline_at - now)


class Model:
    """The kiosk's state. ``revision`` grows on every change so the screen redraws only then."""

    def __init__(self, host: str, pinned: str | None = None) -> None:
        self.host = host
        self.pinned = pinned  # a table id or join code given with --table
        self.link: LinkStatus = "connecting"
        self.link_since = 0.0
        self.box = ""
        self.join_urls: list[str] = []
        self.wifi = ""
        self.tables: dict[str, TableEntry] = {}
        self.on_screen: list[str] = []
        # One descriptor per game id: it never changes while a box runs, and a message that
        # carries one (a ``presentation`` field) teaches it for every table of that game.
        self.presentations: dict[str, dict[str, Any]] = {}
        self.revision = 0
        # Tables whose log the network task should ask the box for (``history``).
        self.history_wanted: set[str] = set()

    # -- the link ----------------------------------------------------------------------------
    def link_up(self, welcome: Welcome, now: float) -> None:
        self.link = "up"
        self.link_since = now
        self.box = welcome.box
        self.join_urls = list(welcome.join_urls)
        self.wifi = welcome.wifi  # the box's own network as a WIFI: QR text, "" when it is off
        for entry in self.tables.values():
            entry.log_known = False  # moves may have gone by unseen: ask for the log again
        self.revision += 1

    def link_down(self, now: float) -> None:
        """The daemon went away: keep the last picture (dimmed by the screen) until it is back."""
        if self.link != "down":
            self.link = "down"
            self.link_since = now
            for entry in self.tables.values():
                entry.deadline_at = None  # a timer cannot run while nobody drives it
            self.revision += 1

    # -- messages ----------------------------------------------------------------------------
    def on_tables(self, tables: list[TableSummary], now: float) -> list[str]:
        """Adopt the host's table list (tables gone from it are dropped); return the ids of
        the tables the kiosk now follows."""
        listed: dict[str, TableSummary] = {}
        for t in tables:
            if t.status == "closed":
                continue
            if self.pinned is not None and self.pinned not in (t.id, t.code):
                continue
            listed[t.id] = t
        for table_id in list(self.tables):
            if table_id not in listed:
                self.drop(table_id)
        for t in listed.values():
            entry = self.tables.get(t.id)
            if entry is None:
                entry = self.tables[t.id] = TableEntry(t.id, moved_at=now)
            entry.code, entry.name, entry.game, entry.title = t.code, t.name, t.game, t.title
            entry.status = t.status
            if entry.state is None or t.seats:
                entry.seats = list(t.seats)
            self._descriptor(entry, t)
        self.revision += 1
        return list(listed)

    def on_state(self, msg: State, now: float) -> None:
        entry = self.tables.get(msg.table)
        if entry is None:
            if self.pinned is not None and self.pinned not in (msg.table, msg.code):
                return
            entry = self.tables[msg.table] = TableEntry(msg.table)
        old = entry.state
        if old is not None and msg.version < old.version:
            return  # an older picture arriving late never replaces a newer one
        if old is None or msg.version != old.version:
            entry.moved_at = now
        entry.state = msg
        entry.game = msg.game or entry.game
        entry.name = msg.name or entry.name
        entry.code = msg.code or entry.code
        entry.status = msg.status
        entry.seats = list(msg.seats)
        entry.deadline_at = None if msg.deadline is None else now + msg.deadline
        self._descriptor(entry, msg)
        self._follow_log(entry, msg)
        self.revision += 1

    # -- the log, the score sheet, reactions ---------------------------------------------------
    def _follow_log(self, entry: TableEntry, msg: State) -> None:
        """Show the state's caption at once (the words the box adds for that move) and ask the
        box for the account after every move: the kiosk may see only the last of a burst of
        states, and one spectator asking costs the box one step of replay."""
        if not entry.log_known or msg.version == entry.log_version:
            if not entry.log_known:
                self.history_wanted.add(entry.id)
            return
        common = msg.common or {}
        last = common.get("last")
        if isinstance(last, dict):
            text = Text(str(last.get("key", "")), {
                str(k): v for k, v in (last.get("args") or []) if isinstance(v, str | int)})
            if not entry.log or entry.log[-1].text != text:
                entry.log.append(LogEntry(version=msg.version, text=text))
        entry.log_version = msg.version
        self.history_wanted.add(entry.id)

    def on_history(self, msg: History) -> None:
        entry = self.tables.get(msg.table)
        if entry is None:
            return
        entry.log, entry.rows, entry.teams = list(msg.entries), list(msg.rows), list(msg.teams)
        entry.log_known, entry.log_version = True, msg.version
        self.revision += 1

    def on_reaction(self, table: str, seat: object, emote: object, now: float) -> None:
        entry = self.tables.get(table)
        if entry is None or not isinstance(seat, int) or not isinstance(emote, str):
            return
        entry.reactions[seat] = (emote, now + REACTION_SHOWN)
        self.revision += 1

    def learn(self, game: str, presentation: dict[str, Any]) -> None:
        """The presentation descriptor of ``game`` (the catalogue entry's, as data)."""
        self.presentations[game] = presentation
        for entry in self.tables.values():
            if entry.game == game:
                entry.presentation = presentation
        self.revision += 1

    def _descriptor(self, entry: TableEntry, msg: object) -> None:
        # An additive protocol field: read only when this box's messages carry it.
        sent = getattr(msg, "presentation", None)
        if isinstance(sent, dict):
            self.presentations[entry.game] = sent
        entry.presentation = self.presentations.get(entry.game)

    def drop(self, table_id: str) -> None:
        if self.tables.pop(table_id, None) is not None:
            self.revision += 1
        if table_id in self.on_screen:
            self.on_screen.remove(table_id)

    def watched(self) -> list[str]:
        return list(self.tables)

    # -- links for phones --------------------------------------------------------------------
    def join_url(self, entry: TableEntry) -> str | None:
        """The IP-literal join link of a table, for its QR code (None if the host gave none)."""
        if not self.join_urls or not entry.code:
            return None
        return f"{self.join_urls[0].rstrip('/')}/?code={entry.code}"

    # -- what is on screen -------------------------------------------------------------------
    def select(self, capacity: int, now: float) -> list[TableEntry]:
        """The tables to draw, at most ``capacity``: all of them if they fit; otherwise follow
        the table that moved last (after ``DWELL``), and rotate after ``ROTATE`` of calm."""
        capacity = max(1, capacity)
        order = list(self.tables)
        shown = [t for t in self.on_screen if t in self.tables][:capacity]
        if len(order) <= capacity:
            shown = list(order)
        else:
            # fill free slots, most recently moved first
            rest = sorted((t for t in order if t not in shown),
                          key=lambda t: -self.tables[t].moved_at)
            while len(shown) < capacity and rest:
                shown.append(rest.pop(0))
            movers = [t for t in rest
                      if self.tables[t].moved_at > self.tables[t].last_shown]
            replaceable = sorted((t for t in shown if self.tables[t].up_for(now) >= DWELL),
                                 key=lambda t: self.tables[t].moved_at)
            replaced = False
            if movers and replaceable:
                out = replaceable[0]
                if self.tables[out].moved_at < self.tables[movers[0]].moved_at:
                    shown[shown.index(out)] = movers[0]
                    replaced = True
                else:
                    # Every table is busy: take turns, so no table waits for ever.
                    long_up = [t for t in shown if self.tables[t].up_for(now) >= 2 * DWELL]
                    if long_up:
                        out = max(long_up, key=lambda t: self.tables[t].up_for(now))
                        waited = min(movers, key=lambda t: self.tables[t].last_shown)
                        shown[shown.index(out)] = waited
                        replaced = True
            if not replaced and rest:
                calm = [t for t in shown if self.tables[t].up_for(now) >= ROTATE
                        and now - self.tables[t].moved_at >= ROTATE]
                if calm:
                    oldest = max(calm, key=lambda t: self.tables[t].up_for(now))
                    waiting = min(rest, key=lambda t: self.tables[t].last_shown)
                    shown[shown.index(oldest)] = waiting
        # keep the screen order stable: tables in the order the host listed them
        shown.sort(key=order.index)
        for table_id, entry in self.tables.items():
            if table_id in shown:
                if entry.shown_since is None:
                    entry.shown_since = now
                entry.last_shown = now
            else:
                entry.shown_since = None
        if shown != self.on_screen:
            self.on_screen = shown
            self.revision += 1
        return [self.tables[t] for t in shown]

    def freshest(self, now: float) -> str | None:
        """The table that moved within ``FRESH`` seconds, if any (for the highlight)."""
        best = max(self.tables.values(), key=lambda e: e.moved_at, default=None)
        if best is None or best.state is None or now - best.moved_at > FRESH:
            return None
        return best.id
