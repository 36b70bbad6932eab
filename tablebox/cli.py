"""The umbrella ``tablebox`` command: the daemon's commands (``hostd.cli``) plus the ones
that are clients of a box (``discover``, ``play``, ``kiosk``).

It lives above both layers, so that ``hostd`` never imports ``clients`` and the clients never
import click: this package is the only one allowed to import both (docs/architecture.md,
"Layers"). User errors print as one line, as in ``hostd.cli``.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from hostd.cli import _fail
from hostd.cli import main as main

if TYPE_CHECKING:
    from clients.browse import ServiceSource


# -- discovery ---------------------------------------------------------------------------------
async def browse_source(backend: str = "auto", interfaces: tuple[str, ...] = ()
                        ) -> ServiceSource | None:
    """What ``clients.browse`` should browse with: Avahi's browser
    (``hostd.discovery.avahi_browse.browse``) where avahi-daemon runs, since a second mDNS
    socket beside it would take unicast queries from it; None for zeroconf. ``--interface``
    means zeroconf under auto (Avahi chooses its own interfaces). OSError when forced to
    Avahi and it is not there. Joined here because clients never import ``hostd.discovery``.
    """
    from hostd.discovery import avahi, avahi_browse

    if backend == "zeroconf" or (backend == "auto" and interfaces):
        return None
    running, why = await avahi.avahi_running()
    if running:
        return avahi_browse.browse
    if backend == "avahi":
        raise OSError(why)
    return None


@click.command()
@click.option("--timeout", type=click.FloatRange(min=0), default=None,
              help="Seconds to listen (default 3; with --watch, forever).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--watch", is_flag=True, help="Print boxes appearing, changing and leaving.")
@click.option("--interface", "interfaces", multiple=True, metavar="NAME|ADDR",
              help="Browse only on this interface (repeatable).")
@click.option("--tables/--no-tables", default=True,
              help="Connect to each box to list its tables (default), or show only what its "
                   "mDNS records say.")
@click.option("--mdns-backend", "backend", type=click.Choice(["auto", "avahi", "zeroconf"]),
              default="auto", show_default=True,
              help="Browse through the system's avahi-daemon (auto: when it runs and no "
                   "--interface is given) or with tablebox's own mDNS socket (zeroconf).")
def discover(timeout: float | None, as_json: bool, watch: bool, interfaces: tuple[str, ...],
             tables: bool, backend: str) -> None:
    """Find tablebox boxes on the local network (mDNS) and list their tables."""
    import msgspec
    import trio

    from clients import browse

    async def source() -> browse.ServiceSource | None:
        return await browse_source(backend, interfaces)

    def line(box: browse.FoundBox) -> str:
        where = f"{box.addresses[0]}:{box.port}" if box.addresses else f"{box.host}:{box.port}"
        counts = "" if box.open_tables is None else (
            f"  {box.open_tables} open tables, {box.free_seats or 0} free seats")
        games = f"  [{', '.join(box.games)}]" if box.games else ""
        web = f"  web {box.web_url()}" if box.web_url() else ""
        alias = f" ({box.instance})" if box.instance != box.name else ""
        return f"{box.name}{alias}  {where}{counts}{games}{web}"

    async def run_watch() -> None:
        with trio.move_on_after(timeout if timeout is not None else float("inf")):
            async with browse.open_browser(interfaces, await source()) as (_browser, events):
                async for event in events:
                    if as_json:
                        click.echo(json.dumps({"event": event.kind, "box": event.box.to_json()},
                                              ensure_ascii=False))
                    else:
                        click.echo(f"{event.kind}: {line(event.box)}")
                    sys.stdout.flush()

    async def list_tables(box: browse.FoundBox, out: dict[str, Any]) -> None:
        from clients.client import connect

        try:
            with trio.fail_after(3):
                async with connect(box.addresses[0], box.port, client="tablebox-discover") as c:
                    out["tables"] = [msgspec.to_builtins(t) for t in await c.list_tables()]
        except Exception as e:  # any box we cannot ask is reported, never fatal
            out["tables_error"] = str(e) or "no answer"

    async def run_discover() -> list[dict[str, Any]]:
        found = await browse.discover(3.0 if timeout is None else timeout, interfaces,
                                      await source())
        rows = [{"box": box} for box in found]
        if tables:
            async with trio.open_nursery() as nursery:
                for row in rows:
                    if row["box"].addresses:
                        nursery.start_soon(list_tables, row["box"], row)
        return rows

    try:
        if watch:
            trio.run(run_watch)
            return
        rows = trio.run(run_discover)
    except OSError as e:
        raise _fail(f"cannot browse mDNS: {e.strerror or e}") from None
    if as_json:
        boxes = [{**row["box"].to_json(), **{k: v for k, v in row.items() if k != "box"}}
                 for row in rows]
        click.echo(json.dumps({"boxes": boxes}, ensure_ascii=False, indent=2))
        return
    if not rows:
        click.echo("no boxes found")
    for row in rows:
        click.echo(line(row["box"]))
        for t in row.get("tables", []):
            click.echo(f"    {t['code']}  {t['name']} ({t['game']}): {t['status']}, "
                       f"{t['free_seats']} of {t['players']} seats free")
        if "tables_error" in row:
            click.echo(f"    (cannot list its tables: {row['tables_error']})")


# -- clients ---------------------------------------------------------------------------------------
@click.command()
@click.option("--host", default="127.0.0.1", help="The box (default: this machine).")
@click.option("--port", type=int, default=None, help="Its TCP port (default 7420).")
@click.option("--code", default=None, help="The table's join code (default: choose from a list).")
@click.option("--name", default=None, help="Your name at the table.")
@click.option("--seat", type=int, default=None, help="Ask for this seat.")
@click.option("--spectate", is_flag=True, help="Watch instead of playing.")
@click.option("--bluetooth", default=None, metavar="ADDR",
              help="Connect over Bluetooth RFCOMM to the paired box AA:BB:CC:DD:EE:FF instead.")
def play(host: str, port: int | None, code: str | None, name: str | None, seat: int | None,
         spectate: bool, bluetooth: str | None) -> None:
    """Play at a table from this terminal: the view, then numbered legal actions."""
    from clients import terminal
    from hostd.config import DEFAULT_TCP_PORT

    try:
        code_ = terminal.run(host, port or DEFAULT_TCP_PORT, code=code, name=name, seat=seat,
                             spectate=spectate, bluetooth=bluetooth)
    except terminal.TerminalError as e:
        raise _fail(str(e)) from None
    sys.exit(code_)


@click.command()
@click.option("--host", default=None, help="The box (default: found by mDNS, else this machine).")
@click.option("--port", type=int, default=None, help="Its TCP port (default 7420).")
@click.option("--table", default=None, metavar="ID", help="Show only this table (id or join code).")
@click.option("--windowed", is_flag=True, help="A window instead of the full screen.")
@click.option("--size", default=None, metavar="WxH", help="The window's size (e.g. 1280x720).")
@click.option("--lang", default="en", metavar="LANG", help="en, fr or ar (default en).")
def kiosk(host: str | None, port: int | None, table: str | None, windowed: bool,
          size: str | None, lang: str) -> None:
    """Show the box's tables on a shared screen: a TV, a monitor, the box's touchscreen."""
    from clients.kiosk import app
    from clients.kiosk.fonts import FontError
    from clients.kiosk.i18n import LANGUAGES
    from hostd.config import DEFAULT_TCP_PORT

    if lang not in LANGUAGES:
        raise _fail(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    try:
        dims = app.parse_size(size) if size else None
    except ValueError as e:
        raise _fail(str(e)) from None
    opts = app.Options(host=host, port=port or DEFAULT_TCP_PORT, table=table, windowed=windowed,
                       size=dims, lang=lang, browse_source=browse_source)
    try:
        app.main(opts)
    except (app.KioskError, FontError) as e:
        raise _fail(str(e)) from None


for _command in (discover, play, kiosk):
    main.add_command(_command)


if __name__ == "__main__":
    main()
