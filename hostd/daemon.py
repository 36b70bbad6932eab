"""``tablebox serve``: the daemon's lifecycle, from opening the store to a clean exit.

Order on start: claim the data directory (``hostd.datadir``: checks, the lock held for the
daemon's lifetime, private modes; the CLI claims it before anything else, even its log
file), open the store, start the AI workers, restore every open table by replay,
then start each listener with ``await nursery.start(...)`` (TCP, HTTP+WebSocket when that
module is installed, the control socket, mDNS and Bluetooth when present and enabled), and
only then report READY to systemd. WATCHDOG pings come from the event loop itself.

Order on SIGTERM (or ``Daemon.stop``): stop accepting (TCP, control, HTTP), let each table
finish the command in hand (its step commits), tell every client ``bye`` with the
``bye.restarting`` key, let the goodbyes drain, close the store, exit. Clients resume after
the restart as after any reconnect.

Never decides anything about a table; that is the hub's and the runners' job.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import trio

from hostd import gcpolicy, notify
from hostd.config import Config
from hostd.control import serve_control
from hostd.datadir import Claim, StartError, claim
from hostd.discovery import netif
from hostd.logs import get_logger
from hostd.session import handle_link
from hostd.store import StorageError, open_store
from hostd.tables.ai import open_ai
from hostd.tables.hub import Hub, HubSettings
from hostd.transports import admission
from hostd.transports.base import FrameLink
from hostd.transports.tcp import serve_ndjson_stream, serve_tcp
from hostd.update.task import run_updates

log = get_logger(__name__)

STOP_SECONDS = 5.0  # bound on stopping tables and saying goodbye (the unit allows more)


@dataclass
class Started:
    """What ``serve`` reports once it is READY (tests and the CLI read the ports here)."""

    hub: Hub
    tcp_port: int
    http_port: int | None
    control: str
    services: list[str] = field(default_factory=list)
    stop: Callable[[], None] = lambda: None
    # How to stop accepting: cancel each listener; the HTTP server stops gracefully.
    stop_accepting: list[Callable[[], None]] = field(default_factory=list, repr=False)


def _optional(module: str) -> Any | None:
    """A sibling module of another engineer's, if it is installed."""
    if importlib.util.find_spec(module) is None:
        return None
    return importlib.import_module(module)


def local_addresses(bind: str) -> list[str]:
    """IP literals clients can reach this box at (for join URLs), best first: see
    ``hostd.discovery.netif.join_addresses`` (never loopback when another address exists)."""
    return netif.join_addresses(bind)


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


async def serve(config: Config, *, ai_processes: int | None = None,
                settings: HubSettings | None = None, handle_signals: bool = True,
                web: bool = True, held: Claim | None = None,
                task_status: trio.TaskStatus[Started] = trio.TASK_STATUS_IGNORED) -> None:
    """Run the daemon until SIGTERM/SIGINT (with ``handle_signals``) or ``Started.stop()``.

    ``held``: the data directory, already claimed by the caller (who releases it); without
    it, ``serve`` claims it first and releases it when it returns.
    """
    if held is None:
        with await trio.to_thread.run_sync(claim, config) as mine:
            await serve(config, ai_processes=ai_processes, settings=settings,
                        handle_signals=handle_signals, web=web, held=mine,
                        task_status=task_status)
        return
    t0 = time.perf_counter()
    settings = settings or HubSettings(ai_speed=config.ai_speed,
                                       grace_seconds=config.grace_seconds)
    stop = trio.Event()
    sync = "FULL" if config.sync_commits else "NORMAL"
    admission.raise_descriptor_limit()
    async with open_store(config.database, synchronous=sync) as store, \
            open_ai(ai_processes) as ai:
        hub = Hub(config, store, ai, settings)
        async with trio.open_nursery() as tables:
            await tables.start(hub.run)
            # The store, the log and the AI workers are open: what is left of the descriptor
            # limit, less a reserve, is the budget for client connections.
            budget = _connection_budget(config)
            async with trio.open_nursery() as conns:
                async def on_link(link: FrameLink) -> None:
                    await handle_link(hub, link)

                started = await _start_services(config, hub, on_link, conns, stop, web=web,
                                                budget=budget)
                log.info("daemon_ready", tables=len(hub.tables), tcp_port=started.tcp_port,
                         http_port=started.http_port, seconds=round(time.perf_counter() - t0, 3))
                async with trio.open_nursery() as background:
                    # The signal receiver is open before READY: a SIGTERM that follows READY
                    # at once must find it, not Python's default handler (no clean stop).
                    if handle_signals:
                        await background.start(_signals, stop)
                    notify.ready(_status_line(hub))
                    task_status.started(started)
                    # Everything alive now lives as long as the daemon: frozen out of the
                    # collector's scans, which from now on run on a clock.
                    background.start_soon(gcpolicy.collect_on_a_clock)
                    background.start_soon(_watchdog, hub)
                    background.start_soon(run_updates, config, hub)
                    await stop.wait()
                    background.cancel_scope.cancel()
                notify.stopping("stopping: saying goodbye")
                log.info("daemon_stopping")
                for stop_one in started.stop_accepting:
                    stop_one()
                # Tables finish the command in hand, so the step in flight commits.
                hub.close_tables()
                with trio.move_on_after(STOP_SECONDS):
                    for runner in list(hub.tables.values()):
                        await runner.stopped.wait()
                hub.bye_all("bye.restarting")
                conns.cancel_scope.deadline = trio.current_time() + 2.0
            tables.cancel_scope.deadline = trio.current_time() + 1.0
    log.info("daemon_stopped")


def _connection_budget(config: Config) -> admission.Admission:
    budget = admission.plan(config.max_connections, config.max_connections_per_address)
    log.info("connection_budget", **budget.as_dict())
    if budget.asked and budget.total < budget.asked:
        log.warning("max_connections_lowered", asked=budget.asked, total=budget.total,
                    descriptors=budget.descriptors,
                    fix="raise LimitNOFILE (systemctl edit tablebox) or lower max_connections")
    return admission.Admission(budget)


async def _start_services(config: Config, hub: Hub,
                          on_link: Callable[[FrameLink], Awaitable[None]],
                          conns: trio.Nursery, stop: trio.Event, *, web: bool,
                          budget: admission.Admission | None = None) -> Started:
    stoppers: list[Callable[[], None]] = []
    services: list[str] = []

    async def scoped(fn: Callable[..., Awaitable[None]], *,
                     task_status: trio.TaskStatus[Any] = trio.TASK_STATUS_IGNORED) -> None:
        scope = trio.CancelScope()
        stoppers.append(scope.cancel)
        with scope:
            await fn(task_status=task_status)

    if budget is not None:
        # Counts refusals and failed accepts, one line per interval (stopped with the rest).
        await conns.start(scoped, budget.run)
    tcp_port: int = await conns.start(scoped, partial(
        serve_tcp, config.bind, config.tcp_port, on_link, handler_nursery=conns,
        admission=budget))
    services.append("tcp")
    hub.listening["tcp"] = {"bind": config.bind, "port": tcp_port}

    control_path = await conns.start(scoped, partial(serve_control, config.control, hub,
                                                     admission=budget))
    services.append("control")
    hub.listening["control"] = str(control_path)

    http_port: int | None = None
    web_mod = _optional("hostd.web.server") if web else None
    if web_mod is not None:
        shutdown = trio.Event()
        http_port = await conns.start(partial(
            web_mod.serve_http, config, on_link, shutdown=shutdown, admission=budget))
        services.append("http")
        hub.listening["http"] = {"bind": config.bind, "port": http_port}
        stoppers.append(shutdown.set)  # graceful: stop accepting, keep the open sockets
        hub.join_urls = [_url(a, http_port) for a in local_addresses(config.bind)]

    if config.hotspot != "off":
        hs = _optional("hostd.hotspot.service")
        if hs is not None:
            hub.hotspot = hs.Hotspot(hs.Settings(
                mode=config.hotspot, interface=config.hotspot_interface,
                ssid=config.hotspot_ssid, passphrase=config.hotspot_passphrase,
                address=config.hotspot_address), config.data_dir, config.box_name,
                http_port or config.http_port)
            await conns.start(scoped, hub.hotspot.run)
            services.append("hotspot")

    if config.bluetooth:
        bt = _optional("hostd.discovery.bluetooth")
        if bt is not None:
            async def on_stream(stream: trio.abc.Stream, peer: str) -> None:
                await serve_ndjson_stream(stream, peer, "bluetooth", on_link)

            # Connections run in ``conns``: stopping Bluetooth (unregistering the profile)
            # must not cut the games in progress before they are told goodbye.
            await conns.start(scoped, partial(bt.run_bluetooth, config, on_stream,
                                              handler_nursery=conns))
            services.append("bluetooth")

    if config.mdns:
        discovery = _optional("hostd.discovery")
        advertise = await _mdns_backend(config)
        if advertise is not None and discovery is not None:
            send, recv = trio.open_memory_channel[Any](16)
            send.send_nowait(discovery.BoxSummary.of_tables(hub.list_tables(seats=False)))
            conns.start_soon(scoped, partial(_publish_summaries, hub, send, discovery))
            # Advertise the ports actually bound (port 0 in a config means "any free one").
            bound = replace(config, tcp_port=tcp_port, http_port=http_port or config.http_port)
            await conns.start(scoped, partial(advertise, bound, recv))
            services.append("mdns")

    return Started(hub, tcp_port, http_port, str(control_path), services, stop.set, stoppers)


async def _mdns_backend(config: Config) -> Callable[..., Awaitable[None]] | None:
    """The advertiser (``run_avahi`` or ``run_mdns``) for ``config.mdns_backend``: Avahi when
    it owns its name on the system bus, so the box opens no mDNS socket beside it. Forced to
    Avahi and Avahi absent: the reason is logged and ``run_avahi`` waits for it to appear."""
    avahi = _optional("hostd.discovery.avahi")
    mdns = _optional("hostd.discovery.mdns")
    if avahi is None:
        log.info("mdns_backend", backend="zeroconf", reason="no Avahi backend installed")
        return mdns.run_mdns if mdns is not None else None
    choice = await avahi.choose(config)
    if choice.backend is None:
        log.error("mdns_backend", backend="avahi", reason=choice.reason,
                  action='waiting for avahi-daemon (or set mdns_backend = "auto")')
        return avahi.run_avahi
    log.info("mdns_backend", backend=choice.backend, reason=choice.reason)
    if choice.backend == "avahi":
        return avahi.run_avahi
    return mdns.run_mdns if mdns is not None else None


async def _publish_summaries(hub: Hub, send: trio.MemorySendChannel[Any], discovery: Any, *,
                             task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                             ) -> None:
    """Hand mDNS the public counts when they change, at most once a second (coalesced)."""
    task_status.started()
    last = None
    async with send:
        seen = hub.changes
        while True:
            seen = await hub.wait_changed(seen)
            summary = discovery.BoxSummary.of_tables(hub.list_tables(seats=False))
            if summary != last:
                last = summary
                with contextlib.suppress(trio.WouldBlock):
                    send.send_nowait(summary)
            await trio.sleep(1.0)


def _status_line(hub: Hub) -> str:
    s = hub.status()
    # `systemctl status tablebox` shows this line: say when a drain is under way.
    damaged = s["tables"].get("damaged", 0)
    return (("draining: " if s["draining"] else "")
            + f"{s['tables']['playing']} tables playing, {s['tables']['finished']} finished, "
            + (f"{damaged} damaged (see tablebox doctor), " if damaged else "")
            + f"{s['connections']} connections")


async def _watchdog(hub: Hub) -> None:
    interval = notify.watchdog_interval()
    last_status = ""
    while True:
        if interval is not None:
            notify.watchdog()
        line = _status_line(hub)
        if line != last_status:
            notify.status(line)
            last_status = line
        await trio.sleep(interval if interval is not None else 5.0)


async def _signals(stop: trio.Event,
                   task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        task_status.started()
        async for signum in signals:
            log.info("signal_received", signal=signal.Signals(signum).name)
            stop.set()
            return


# What an operator can fix: raised to the CLI as itself, which prints it as one line.
OPERATOR_ERRORS = (StartError, StorageError, OSError)


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for e in error.exceptions for leaf in _leaves(e)]
    return [] if isinstance(error, trio.Cancelled) else [error]


def run(config: Config, *, on_ready: Callable[[Started], None] | None = None,
        ai_processes: int | None = None, held: Claim | None = None) -> None:
    """Run the daemon in this thread (the CLI's entry point).

    A failure before READY that the operator can fix (a store that will not open, a port in
    use) is raised on its own, not inside the exception groups of the nurseries it passed
    through, so that the CLI can print it as one line; anything else, and anything after
    READY, is raised as it came (a bug keeps its traceback).
    """
    ready = False

    async def main() -> None:
        nonlocal ready
        async with trio.open_nursery() as nursery:
            started: Started = await nursery.start(partial(serve, config, held=held,
                                                           ai_processes=ai_processes))
            ready = True
            if on_ready is not None:
                on_ready(started)

    try:
        trio.run(main)
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        if not ready and len(leaves) == 1 and isinstance(leaves[0], OPERATOR_ERRORS):
            raise leaves[0] from None
        raise
