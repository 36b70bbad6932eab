"""``tablebox play``: play at a table from a terminal (or any line-based stdin/stdout).

Shows the table (seats, whose turn it is, your view) each time it changes and, on your
turn, the numbered legal actions the host sent; you type a number. It never works out what
is legal itself (the host's ``legal`` list is the only menu). On a dropped link it
reconnects and resumes the seat with its token, as after a box restart. The token is kept
in memory only and never printed.

Commands at the prompt: a number plays that action; ``r`` asks for a rematch once the game
is over; ``leave`` gives the seat back to the AI and quits; ``q`` (or end of input) quits,
leaving the seat to be covered by the AI after the grace period.
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from typing import Any, TextIO

import trio

from clients.client import (
    Client,
    ClientError,
    Disconnected,
    Refused,
    connect,
    connect_bluetooth,
)
from clients.strings import catalogue
from hostd.protocol.messages import Notice, State

_CARD = re.compile(r"^[A2-9TJQK][SHDC]$")
_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RECONNECT_SECONDS = 60.0


class TerminalError(Exception):
    """A one-line reason the client cannot go on (shown without a traceback)."""


def _at(xs: Any, i: int) -> Any:
    """The i-th of a per-seat list the host sent, or None (an older box sends none)."""
    return xs[i] if isinstance(xs, list) and 0 <= i < len(xs) else None


class Screen:
    """What the player reads: the table as a game shows it, never a dump of the wire.

    Seats with who is to play and who you are and what is said of each (its badges, its note),
    the captions, the result between hands and the score of each side (the state's common
    part), your hand, what just happened, and the view's other fields by their
    names in the game's strings, each printed when it changes rather than on every move (the
    options a table was opened with do not change). Words come from the game's catalogue
    (``clients.strings``, English); a key it lacks shows as readable words.
    """

    def __init__(self, out: TextIO, *, symbols: bool) -> None:
        self.out = out
        self.symbols = symbols
        self.game = ""
        self.strings: dict[str, str] = {}
        self.shown: dict[str, str] = {}  # each view field as last printed
        self.names: list[str] = []

    def say(self, text: str = "", end: str = "\n") -> None:
        self.out.write(text + end)
        self.out.flush()

    def use_game(self, game: str) -> None:
        if game != self.game:
            self.game, self.strings, self.shown = game, catalogue(game, "en"), {}

    def t(self, key: str, args: dict[str, Any] | None = None) -> str:
        template = self.strings.get(key)
        if template is None:
            return key.rsplit(".", 1)[-1].replace("_", " ")
        values = {k: self.value(v) for k, v in (args or {}).items()}
        seat = (args or {}).get("seat")
        if isinstance(seat, int) and "name" not in values and 0 <= seat < len(self.names):
            values["name"] = self.names[seat]  # a seat argument names the seat ({name})
        return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template)

    def caption(self, cap: Any) -> str:
        """A common part's caption (``{key, args}``) in words; a suit reads as its symbol."""
        if not isinstance(cap, dict):
            return ""
        args = {k: _SUITS[v] if k == "suit" and self.symbols and v in _SUITS else v
                for k, v in cap.get("args") or []}
        return self.t(str(cap.get("key", "")), args)

    # -- formatting values the host sent (generic: any game) ------------------------------------
    def card(self, code: str) -> str:
        if self.symbols and _CARD.match(code):
            rank = "10" if code[0] == "T" else code[0]
            return rank + _SUITS[code[1]]
        return code

    def value(self, v: Any) -> str:
        if isinstance(v, str):
            if self.game and v.startswith(self.game + ".") and v in self.strings:
                return self.t(v)
            return self.card(v)
        if isinstance(v, bool):
            return "yes" if v else "no"
        if v is None:
            return "-"
        if isinstance(v, int | float):
            return str(v)
        if isinstance(v, list):
            return "[" + " ".join(self.value(x) for x in v) + "]" if v else "-"
        if isinstance(v, dict):
            fields = " ".join(f"{self.label(k)} {self.value(x)}" for k, x in v.items()
                              if k != "type")
            return f"({fields})"
        return str(v)

    def label(self, field: str) -> str:
        key = f"{self.game}.field.{field}"
        return self.strings[key] if key in self.strings else field.replace("_", " ")

    def action(self, a: dict[str, Any]) -> str:
        kind = str(a.get("type", "?"))
        args = {k: v for k, v in a.items() if k != "type"}
        key = f"{self.game}.action.{kind}"
        values = ", ".join(self.value(v) for v in args.values())
        if key in self.strings:
            # A label without placeholders ("Play") still names what it plays.
            text = self.t(key, args)
            return text if "{" in self.strings[key] or not values else f"{text}: {values}"
        words = kind.replace("_", " ")
        return f"{words}: {values}" if args else words

    def view_lines(self, view: dict[str, Any], skip: frozenset[str] = frozenset()) -> list[str]:
        """The view's fields that changed since they were last shown, by name."""
        lines = []
        for k, v in view.items():
            if k == "type" or k in skip:
                continue
            if isinstance(v, list) and v and all(isinstance(r, list) for r in v) and len(v) > 4:
                text = "\n".join("    " + " ".join(f"{self.value(c):>3}" for c in row) for row in v)
                line = f"  {self.label(k)}:\n{text}"  # a grid (a board)
            else:
                line = f"  {self.label(k)}: {self.value(v)}"
            if self.shown.get(k) != line:
                self.shown[k] = line
                lines.append(line)
        return lines

    def state(self, s: State, me: int | None) -> None:
        self.use_game(s.game)
        self.names = [seat.name or f"AI {seat.level}" for seat in s.seats]
        common = s.common or {}
        counts = common.get("hand_counts") or []
        self.say("")
        self.say(f"== {s.name} · {s.game} · code {s.code}"
                 + ("" if s.status == "playing" else f" · {s.status}"))
        for seat in s.seats:
            tags = []
            if seat.seat == me:
                tags.append("you")
            if seat.controller == "human" and not seat.connected:
                tags.append("away, AI covers" if seat.covered else "away")
            turn = ">" if seat.seat in s.to_act else " "
            cards = f"  {counts[seat.seat]} cards" if seat.seat < len(counts) else ""
            tags += [self.caption(b) for b in _at(common.get("badges"), seat.seat) or []]
            extra = f" ({', '.join(tags)})" if tags else ""
            note = _at(common.get("seat_notes"), seat.seat)
            said = f"  [{self.caption(note)}]" if note else ""
            self.say(f" {turn} {self.names[seat.seat]}{extra}{cards}{said}")
        for cap in (*(common.get("captions") or []), *(common.get("result") or [])):
            self.say("  " + self.caption(cap))
        teams, scores = common.get("teams") or [], common.get("scores") or []
        if scores:
            sides = [" & ".join(n for n, team in zip(self.names, teams, strict=False) if team == side)
                     for side in range(len(scores))]
            notes = [f" ({self.caption(n)})" for n in common.get("side_notes") or []]
            self.say("  score: " + " · ".join(f"{who} {sc}{_at(notes, i) or ''}"
                                              for i, (who, sc) in enumerate(zip(sides, scores,
                                                                                strict=False))))
        if not s.to_act and isinstance(common.get("sheet"), dict):
            self.sheet(common["sheet"])  # between hands, as the kiosk shows it
        if common.get("last"):
            self.say("  last: " + self.caption(common["last"]))
        for line in self.view_lines(s.view, frozenset({"seat", "to_act", "hand", "hand_counts"})):
            self.say(line)
        if me is not None and common.get("hand") is not None:
            self.say("  your hand: " + (" ".join(self.card(c) for c in common["hand"]) or "-"))
        if s.outcome is not None:
            self.outcome(s.outcome)

    def sheet(self, sheet: dict[str, Any]) -> None:
        """The game's score sheet (common.sheet): its title, then a line per row, cells by |."""
        self.say(f"  {self.caption(sheet.get('title'))}:")
        for cells in (sheet.get("heads"), *(sheet.get("rows") or []), sheet.get("totals")):
            if cells:
                self.say("    " + " | ".join(self.caption(c) for c in cells))

    def outcome(self, o: dict[str, Any]) -> None:
        winners = [self.names[w] if w < len(self.names) else f"seat {w}" for w in o["winners"]]
        head = "a draw" if o.get("draw") or not winners else " & ".join(winners) + " won"
        reason = f": {self.t(o['reason'])}" if o.get("reason") else ""
        self.say(f"game over, {head}{reason}")
        self.say("  " + " · ".join(f"{n} {sc}" for n, sc in zip(self.names, o["scores"],
                                                             strict=False)))

    def menu(self, s: State) -> None:
        for i, a in enumerate(s.legal, 1):
            self.say(f"  {i:>3}. {self.action(a)}")
        deadline = f" ({s.deadline:.0f} s left)" if s.deadline is not None else ""
        self.say(f"your move [1-{len(s.legal)}]{deadline}: ", end="")

    def notice(self, n: Notice) -> None:
        args = ", ".join(f"{k} {v}" for k, v in n.text.args.items())
        self.say(f"* {n.text.key.removeprefix('notice.').replace('_', ' ')}"
                 + (f" ({args})" if args else ""))


async def _lines(send: trio.MemorySendChannel[str | None], inp: TextIO) -> None:
    async with send:
        while True:
            line = await trio.to_thread.run_sync(inp.readline, abandon_on_cancel=True)
            if not line:
                await send.send(None)
                return
            await send.send(line.strip())


class Player:
    def __init__(self, screen: Screen, lines: trio.MemoryReceiveChannel[str | None]) -> None:
        self.screen = screen
        self.lines = lines
        self.token: str | None = None
        self.table: str | None = None
        self.seat: int | None = None

    async def ask(self, prompt: str) -> str:
        self.screen.say(prompt, end="")
        line = await self.lines.receive()
        if line is None:
            raise TerminalError("end of input")
        return line

    async def choose_table(self, c: Client) -> str:
        tables = await c.list_tables()
        if not tables:
            raise TerminalError("no tables on this box (create one: tablebox tables new GAME)")
        for i, t in enumerate(tables, 1):
            self.screen.say(f"  {i}. {t.name} ({t.game}) code {t.code}: "
                            f"{t.free_seats} of {t.players} seats free [{t.status}]")
        while True:
            answer = await self.ask(f"table [1-{len(tables)}]: ")
            if answer.isdigit() and 1 <= int(answer) <= len(tables):
                return tables[int(answer) - 1].code

    async def start(self, c: Client, code: str | None, name: str | None, seat: int | None,
                    spectate: bool) -> None:
        if self.token is not None:
            joined = await c.resume(self.token)
            self.screen.say(f"* back at seat {joined.seat}")
            return
        if code is None:
            code = await self.choose_table(c)
        if spectate:
            state = await c.spectate(code)
            self.table = state.table
            return
        while not name:
            name = (await self.ask("your name: ")).strip()
        try:
            joined = await c.join(code, name, seat)
        except Refused as e:
            raise TerminalError(f"cannot join table {code}: {e.code.replace('_', ' ')}") from None
        self.token, self.table, self.seat = joined.token, joined.table, joined.seat
        self.screen.say(f"* you sit at seat {joined.seat}")

    async def session(self, c: Client) -> int:
        """Play until the player quits (0) or the table closes (0); raises Disconnected."""
        assert self.table is not None
        table = self.table
        shown: tuple[int, Any] | None = None
        prompted = False
        seen_notices = len(c.notices)
        while True:
            for n in c.notices[seen_notices:]:
                if n.table == table:
                    self.screen.notice(n)
                    if n.text.key in ("notice.table_closed", "notice.kicked",
                                      "notice.taken_over"):
                        return 0
            seen_notices = len(c.notices)
            if c.closed is not None:
                raise c.closed
            s = c.states.get(table)
            if s is not None and (s.version, s.seats) != shown:
                shown = (s.version, s.seats)
                self.screen.state(s, self.seat)
                prompted = False
                if s.legal:
                    self.screen.menu(s)
                    prompted = True
                elif s.status == "finished" and self.seat is not None:
                    self.screen.say("type r for a rematch, q to quit: ", end="")
                    prompted = True
            # Wait for whichever comes first: a line typed, or a message from the host
            # newer than what was just shown (``since``: none can slip in between).
            line: str | bool | None = False
            since = c.seq
            async with trio.open_nursery() as waiter:
                async def take_line() -> None:
                    nonlocal line
                    line = await self.lines.receive()
                    waiter.cancel_scope.cancel()

                async def take_change(since: int) -> None:
                    with contextlib.suppress(Disconnected):
                        await c.changed(since)
                    waiter.cancel_scope.cancel()

                waiter.start_soon(take_line)
                waiter.start_soon(take_change, since)
            if line is False:
                continue
            if line is None or line == "q":
                return 0
            assert isinstance(line, str)
            if line == "leave" and self.seat is not None:
                await c.leave(table)
                self.token = None
                return 0
            s = c.states.get(table)
            if s is None:
                continue
            if line == "r" and s.status == "finished":
                try:
                    reply = await c.rematch(table)
                except Refused as e:
                    self.screen.say(f"refused: {e.code.replace('_', ' ')}")
                else:
                    if isinstance(reply, Notice):
                        self.screen.say("* waiting for the others to agree")
                continue
            if line.isdigit() and s.legal and 1 <= int(line) <= len(s.legal):
                try:
                    await c.intent(table, s.version, s.legal[int(line) - 1], seat=self.seat)
                except Refused as e:
                    self.screen.say(f"refused: {e.code.replace('_', ' ')}")
                    shown = None  # show the table and the menu again
                continue
            if prompted and s.legal:
                self.screen.say(f"type a number from 1 to {len(s.legal)}: ", end="")


async def play(host: str, port: int, *, code: str | None = None, name: str | None = None,
               seat: int | None = None, spectate: bool = False, inp: TextIO | None = None,
               out: TextIO | None = None, bluetooth: str | None = None) -> int:
    inp = sys.stdin if inp is None else inp
    out = sys.stdout if out is None else out
    encoding = (getattr(out, "encoding", "") or "").lower()
    screen = Screen(out, symbols=encoding.replace("-", "") == "utf8")
    send, recv = trio.open_memory_channel[str | None](16)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_lines, send, inp)
            player = Player(screen, recv)
            try:
                result = await _play_reconnecting(player, host, port, code, name, seat,
                                                  spectate, bluetooth)
            finally:
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # The line reader never fails: a group holds the session's own error (a
        # TerminalError the CLI prints as one line), given back unwrapped.
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
    return result


async def _play_reconnecting(player: Player, host: str, port: int, code: str | None,
                             name: str | None, seat: int | None, spectate: bool,
                             bluetooth: str | None = None) -> int:
    give_up: float | None = None
    while True:
        try:
            # Over RFCOMM to a paired box when ``bluetooth`` names one, else over TCP.
            link = (connect_bluetooth(bluetooth, client="tablebox-terminal") if bluetooth
                    else connect(host, port, client="tablebox-terminal"))
            async with link as c:
                await player.start(c, code, name, seat, spectate)
                give_up = None
                return await player.session(c)
        except Disconnected as e:
            if player.table is None or (player.token is None and not spectate):
                raise TerminalError(str(e)) from None
            now = trio.current_time()
            give_up = give_up or now + RECONNECT_SECONDS
            if now > give_up:
                raise TerminalError(f"lost the box: {e}") from None
            player.screen.say("* connection lost; reconnecting...")
            await trio.sleep(1.0)
            if spectate:
                code = player.table
        except Refused as e:
            raise TerminalError(f"the box refused: {e.code.replace('_', ' ')}") from None
        except ClientError as e:
            raise TerminalError(str(e)) from None


def run(host: str, port: int, *, code: str | None = None, name: str | None = None,
        seat: int | None = None, spectate: bool = False, bluetooth: str | None = None) -> int:
    """The CLI's entry point: 0 when the player is done."""
    try:
        return trio.run(lambda: play(host, port, code=code, name=name, seat=seat,
                                     spectate=spectate, bluetooth=bluetooth))
    except KeyboardInterrupt:
        return _interrupted()
    except BaseExceptionGroup as group:
        # Ctrl-C lands in whichever task runs; trio may hand it back inside a group.
        if group.subgroup(KeyboardInterrupt) is not None:
            return _interrupted()
        raise


def _interrupted() -> int:
    """Ctrl-C: a clean line, no traceback; the seat is covered by the AI after the grace."""
    # A Ctrl-C can land between a task's start_soon and its first step; that coroutine is
    # then dropped unawaited, and Python would print a RuntimeWarning over the goodbye line.
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited",
                            category=RuntimeWarning)
    sys.stdout.write("\n* bye (the computer covers your seat if you do not come back)\n")
    sys.stdout.flush()
    return 130
