"""Publishing and browsing through real avahi-daemons, in network namespaces the test creates.

Two hosts joined by a veth cable, each with its own system bus and avahi-daemon
(``avahi_net``): the box (``tablebox serve`` in host A) publishes through A's Avahi; host B
looks with ``avahi-browse``, ``dig`` and ``tablebox discover``, all through B's own Avahi or
straight at A's port 5353. Nothing here sends mDNS outside a namespace.
"""

from __future__ import annotations

import json
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import trio

from bench.netns import BIN, Netns, Proc, Procs, link, network_namespaces
from hostd.discovery import (
    SERVICE_TYPE,
    SETTLE,
    UPDATE_INTERVAL,
    BoxSummary,
    Pending,
    avahi_browse,
    netif,
)
from hostd.discovery.avahi import decide
from hostd.protocol import PROTOCOL_VERSION
from tests.hostd.discovery.avahi_net import Host, avahi_hosts, txt_of, unescape, wait_started

SEEN = 20.0  # seconds to wait for something to appear on (or leave) the network
TABLEBOX, HTTP = "_tablebox._tcp", "_http._tcp"


@asynccontextmanager
async def short_dir() -> AsyncIterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="tb-"))  # Unix socket paths must stay short
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


async def serve(procs: Procs, ns: Netns, env: dict[str, str], tmp: Path, tag: str, name: str,
                *extra: str) -> Proc:
    return await procs.start(ns.exec_args(
        str(BIN / "tablebox"), "serve", "--data-dir", str(tmp / f"data-{tag}"),
        "--control", str(tmp / f"{tag}.sock"), "--bind", "0.0.0.0", "--tcp-port", "0",
        "--http-port", "0", "--mdns", "--no-bluetooth", "--box-name", name, "--ai-speed", "0",
        "--ai-processes", "0", "--log-level", "debug", *extra), tmp / f"serve-{tag}.log",
        env=env)


async def cli(procs: Procs, tmp: Path, ns: Netns, env: dict[str, str], *args: str) -> str:
    proc = await procs.start(ns.exec_args(str(BIN / "tablebox"), *args),
                             tmp / f"cli-{len(procs.procs)}.log", env=env)
    out = await proc.output(30)
    assert proc.process.returncode == 0, (out, proc.log.read_text())
    return out


async def py(procs: Procs, tmp: Path, ns: Netns, env: dict[str, str], code: str) -> str:
    """A line of Python in ``ns`` with ``env`` (that host's own system bus)."""
    proc = await procs.start(ns.exec_args(str(BIN / "python"), "-c", code),
                             tmp / f"py-{len(procs.procs)}.log", env=env)
    out = await proc.output(30)
    assert proc.process.returncode == 0, (out, proc.log.read_text())
    return out


async def seen_from(host: Host, pred: Callable[[list[list[str]]], bool],
                    timeout: float = SEEN) -> list[list[str]]:
    """``avahi-browse -rpt`` on ``host``, again and again until ``pred`` holds of its lines."""
    lines: list[list[str]] = []
    with trio.move_on_after(timeout):
        while True:
            lines = await trio.to_thread.run_sync(host.browse)
            if pred(lines):
                return lines
            await trio.sleep(0.2)
    raise AssertionError(f"not seen within {timeout}s; last: {lines}")


def entries(lines: list[list[str]], type_: str) -> dict[str, dict[str, Any]]:
    """instance name -> host, address, port, TXT, from avahi-browse's resolved lines."""
    return {unescape(f[3]): {"host": f[6], "address": f[7], "port": int(f[8]),
                             "txt": txt_of(f[9])}
            for f in lines if f[4] == type_}


async def json_log(proc: Proc, event: str, timeout: float = SEEN) -> dict[str, Any]:
    return await proc.next_json(lambda d: d.get("event") == event, timeout)


def sockets_on_5353(ns: Netns) -> str:
    return ns.run("ss", "-ulpnH", "sport = :5353").stdout


async def test_the_box_publishes_through_avahi(tmp_path: Path) -> None:
    with avahi_hosts() as [a, b]:
        await wait_started(a, b)
        async with Procs() as procs, short_dir() as run:
            box = await serve(procs, a.ns, a.env, run, "a", "Salle Verte")
            chosen = await json_log(box, "mdns_backend")
            assert chosen["backend"] == "avahi" and "auto" in chosen["reason"]
            status = json.loads(await cli(procs, tmp_path, a.ns, a.env, "status", "--json",
                                          "--control", str(run / "a.sock")))
            ports = {t: status["listening"][k]["port"] for t, k in ((TABLEBOX, "tcp"),
                                                                   (HTTP, "http"))}
            box_id = (run / "data-a" / "box-id").read_text().strip()

            # From the other host, through its own Avahi: both types, address, port and TXT.
            lines = await seen_from(b, lambda ls: all(
                "Salle Verte" in entries(ls, t) for t in (TABLEBOX, HTTP)))
            tb, web = entries(lines, TABLEBOX)["Salle Verte"], entries(lines, HTTP)["Salle Verte"]
            assert tb["host"] == web["host"] == "boxa.local"  # Avahi's own host name
            assert tb["address"] == web["address"] == a.address
            assert tb["port"] == ports[TABLEBOX] and web["port"] == ports[HTTP]
            assert tb["txt"] == {"txtvers": "1", "id": box_id, "name": "Salle Verte",
                                 "ver": tb["txt"]["ver"], "proto": str(PROTOCOL_VERSION),
                                 "tables": "0", "free": "0", "games": ""}
            assert web["txt"] == {"txtvers": "1", "path": "/", "id": box_id,
                                  "name": "Salle Verte"}

            # tablebox opened no mDNS socket: Avahi alone holds 5353, and still answers
            # unicast queries there for its host name while tablebox runs.
            held = sockets_on_5353(a.ns)
            assert "avahi-daemon" in held and "python" not in held and "tablebox" not in held
            dig = b.ns.run("dig", "+short", "+time=2", "+tries=2", "-p", "5353",
                           f"@{a.address}", f"{a.hostname}.local")
            assert dig.stdout.split() == [a.address], dig

            # A new table changes the TXT in place.
            await cli(procs, tmp_path, a.ns, a.env, "tables", "new", "euchre", "--ai", "random",
                      "--control", str(run / "a.sock"))
            lines = await seen_from(b, lambda ls: entries(ls, TABLEBOX).get(
                "Salle Verte", {}).get("txt", {}).get("tables") == "1")
            txt = entries(lines, TABLEBOX)["Salle Verte"]["txt"]
            assert txt["free"] == "4" and txt["games"] == "euchre" and txt["id"] == box_id

            # `tablebox discover` on the other host browses through its Avahi, then asks the box.
            found = json.loads(await cli(procs, tmp_path, b.ns, b.env, "discover", "--json",
                                         "--timeout", "1.5", "--mdns-backend", "avahi"))
            [listed] = found["boxes"]
            assert listed["box_id"] == box_id and listed["addresses"] == [a.address]
            assert listed["http_port"] == ports[HTTP] and listed["open_tables"] == 1
            assert [t["game"] for t in listed["tables"]] == ["euchre"]

            # The kiosk's box finder, as `tablebox kiosk` wires it, browses through Avahi too.
            found_by_kiosk = await py(procs, tmp_path, b.ns, b.env,
                                      "import trio; from clients.kiosk.net import locate; "
                                      "from tablebox.cli import browse_source; "
                                      "from hostd.discovery.avahi_browse import browse; "
                                      "print(trio.run(browse_source) is browse); "
                                      f"t = trio.run(locate, {ports[TABLEBOX]}, 1.5, "
                                      "browse_source); print(t.host, t.port)")
            assert found_by_kiosk.split() == ["True", a.address, str(ports[TABLEBOX])]

            # Stopping the daemon frees the groups: Avahi's goodbyes remove the services.
            box.process.terminate()
            out = await box.output(15)
            assert box.process.returncode == 0 and '"mdns_unregistered"' in out, out[-4000:]
            await seen_from(b, lambda ls: not entries(ls, TABLEBOX) and not entries(ls, HTTP))


async def test_a_second_box_with_the_same_name_is_renamed(tmp_path: Path) -> None:
    with avahi_hosts() as [a, b]:
        await wait_started(a, b)
        async with Procs() as procs, short_dir() as run:
            # The first publishes on one named interface (its index, for Avahi).
            first = await serve(procs, a.ns, a.env, run, "a", "Corner", "--mdns-interfaces",
                                "tbx0")
            await seen_from(b, lambda ls: "Corner" in entries(ls, TABLEBOX))
            # The second listens on one address: published under its own host name.
            second = await serve(procs, b.ns, b.env, run, "b", "Corner", "--bind", b.address)
            lines = await seen_from(a, lambda ls: {"Corner", "Corner (2)"} <= set(
                entries(ls, TABLEBOX)) and "Corner (2)" in entries(ls, HTTP))
            tb = entries(lines, TABLEBOX)
            ids = {t: (run / f"data-{t}" / "box-id").read_text().strip() for t in "ab"}
            assert tb["Corner"]["txt"]["id"] == ids["a"]  # the first keeps its name
            assert tb["Corner (2)"]["txt"]["id"] == ids["b"]
            assert tb["Corner (2)"]["txt"]["name"] == "Corner"  # the TXT keeps the box's name
            assert tb["Corner (2)"]["address"] == b.address
            assert tb["Corner (2)"]["host"] == f"tablebox-{ids['b'][:8]}.local"
            assert tb["Corner"]["host"] == "boxa.local"
            conflict = await json_log(second, "mdns_name_conflict")
            assert conflict["name"] == "Corner" and conflict["backend"] == "avahi"
            assert not any('"mdns_name_conflict"' in line for line in first.lines)

            # The finder's Avahi browser, in this process: both boxes, and a peer's record
            # with a repeated key read as zeroconf reads it (the first on the wire wins).
            peer = await procs.start(a.ns.exec_args(
                "avahi-publish", "-s", "Odd", TABLEBOX, "9", "id=first", "name=x", "id=second"),
                tmp_path / "peer.log", env=a.env)
            found: dict[str, Any] = {}
            async with avahi_browse.browse(bus=b.bus) as events:
                with trio.move_on_after(SEEN):
                    async for type_, name, svc in events:
                        if type_ == SERVICE_TYPE and svc is not None:
                            found[name] = svc
                        if len(found) == 3:
                            break
            assert set(found) == {f"{n}.{SERVICE_TYPE}" for n in ("Corner", "Corner (2)", "Odd")}
            assert found[f"Odd.{SERVICE_TYPE}"].properties[b"id"] == b"first"
            assert found[f"Corner.{SERVICE_TYPE}"].addresses == (a.address,)
            await peer.stop()


async def test_without_avahi_auto_falls_back_and_forced_waits_for_it(tmp_path: Path) -> None:
    with avahi_hosts(avahi=False) as [a, b]:  # the buses, but no avahi-daemon yet
        async with Procs() as procs, short_dir() as run:
            # auto: tablebox's own responder, as before (the zeroconf tests cover the rest).
            auto = await serve(procs, a.ns, a.env, run, "z", "Auto")
            said = await json_log(auto, "mdns_backend")
            assert said["backend"] == "zeroconf" and "auto" in said["reason"]
            assert "avahi" not in said["reason"].replace("avahi-daemon is not", "")
            await json_log(auto, "daemon_ready")
            assert "python" in sockets_on_5353(a.ns) or "tablebox" in sockets_on_5353(a.ns)
            auto.process.terminate()
            await auto.output(15)

            # Forced to Avahi: says why at error level, announces nothing, opens no socket...
            forced = await serve(procs, a.ns, a.env, run, "f", "Forced",
                                 "--mdns-backend", "avahi")
            said = await json_log(forced, "mdns_backend")
            assert said["level"] == "error" and said["backend"] == "avahi"
            assert "not on the D-Bus system bus" in said["reason"]
            await json_log(forced, "daemon_ready")
            assert sockets_on_5353(a.ns) == ""
            # ... and publishes as soon as avahi-daemon appears,
            a.start_avahi()
            b.start_avahi()
            await wait_started(a, b)
            await seen_from(b, lambda ls: "Forced" in entries(ls, TABLEBOX))
            await json_log(forced, "mdns_registered")
            # and again after avahi-daemon restarts (its groups went with it).
            a.stop_avahi()
            await seen_from(b, lambda ls: "Forced" not in entries(ls, TABLEBOX))
            await json_log(forced, "mdns_avahi_lost")
            a.start_avahi()
            await wait_started(a)
            await seen_from(b, lambda ls: "Forced" in entries(ls, TABLEBOX))


async def test_join_address_is_the_default_routes_interface(tmp_path: Path) -> None:
    with network_namespaces(2) as [box, phone]:
        link(box, "tbx0", "10.95.0.1/24", phone, "tbx1", "10.95.0.2/24")
        # A second LAN with no route out (the kernel here has no dummy links: a veth pair).
        box.run("ip", "link", "add", "tbx9", "type", "veth", "peer", "name", "tbx8")
        box.run("ip", "addr", "add", "10.94.0.1/24", "dev", "tbx9")
        for dev in ("tbx9", "tbx8"):
            box.run("ip", "link", "set", dev, "up")

        def addresses(bind: str) -> list[str]:
            out = box.run(str(BIN / "python"), "-c",
                          "import json, sys; from hostd.discovery import netif; "
                          "print(json.dumps(netif.join_addresses(sys.argv[1])))", bind)
            return list(json.loads(out.stdout))

        # No default route: still a LAN address, never loopback.
        assert addresses("0.0.0.0")[0] in ("10.95.0.1", "10.94.0.1")
        assert "127.0.0.1" not in addresses("0.0.0.0")
        assert box.run("ip", "route", "add", "default", "via", "10.95.0.2").returncode == 0
        assert addresses("0.0.0.0") == ["10.95.0.1", "10.94.0.1"]  # the default route's first
        assert addresses("10.94.0.1") == ["10.94.0.1"]  # bound to one: that one
        async with Procs() as procs, short_dir() as run:
            daemon = await serve(procs, box, {}, run, "j", "Join", "--no-mdns")
            with trio.fail_after(SEEN):
                while not any(x.startswith("tablebox: join at") for x in daemon.lines):
                    assert await daemon.readline() is not None, daemon.log.read_text()
            joins = [x.split()[-1] for x in daemon.lines if x.startswith("tablebox: join at")]
            assert joins[0].startswith("http://10.95.0.1:"), joins
            assert not any("127.0.0.1" in j for j in joins)
            # ... and a phone on the cable reaches the page at that address.
            page = phone.run("python3", "-c", "import sys, urllib.request; print(urllib.request"
                             ".urlopen(sys.argv[1] + 'healthz', timeout=5).status)", joins[0])
            assert page.stdout.strip() == "200", page


def test_join_addresses_prefer_the_route_and_skip_tunnels() -> None:
    def adapter(name: str, *ips: str) -> Any:
        return SimpleNamespace(name=name, ips=[SimpleNamespace(
            ip=ip if "." in ip else (ip, 0, 0), is_IPv4="." in ip) for ip in ips])

    ifs = [adapter("lo", "127.0.0.1", "::1"), adapter("wg0", "10.8.0.2"),
           adapter("docker0", "172.17.0.1"), adapter("wlan0", "192.168.1.20", "fe80::1",
                                                     "2001:db8::20"),
           adapter("eth0", "10.0.0.5")]

    def via(v4: str | None, v6: str | None = None) -> Callable[[int], str | None]:
        return lambda family: v4 if family == socket.AF_INET else v6

    assert netif.join_addresses("0.0.0.0", ifs, via("10.0.0.5")) == [
        "10.0.0.5", "192.168.1.20", "10.8.0.2", "172.17.0.1"]
    # A default route through a VPN is no address for a phone: the LAN comes first.
    assert netif.join_addresses("0.0.0.0", ifs, via("10.8.0.2"))[:2] == ["192.168.1.20",
                                                                        "10.0.0.5"]
    assert netif.join_addresses("::", ifs, via(None, "2001:db8::20"))[:2] == [
        "2001:db8::20", "192.168.1.20"]
    assert "fe80::1" not in netif.join_addresses("::", ifs, via(None))
    assert netif.join_addresses("0.0.0.0", [ifs[0]], via(None)) == ["127.0.0.1"]
    assert netif.join_addresses("0.0.0.0", [ifs[0], ifs[1]], via(None)) == ["10.8.0.2"]
    assert netif.join_addresses("192.168.1.20", ifs, via("10.0.0.5")) == ["192.168.1.20"]


def test_decide_names_the_backend_and_why() -> None:
    assert decide("auto", True).backend == "avahi"
    fallback = decide("auto", False, "no D-Bus system bus (no such file)")
    assert fallback.backend == "zeroconf" and "no D-Bus system bus" in fallback.reason
    assert decide("zeroconf", True).backend == "zeroconf"
    forced = decide("avahi", False)
    assert forced.backend is None and 'mdns_backend = "avahi"' in forced.reason
    assert decide("avahi", True).backend == "avahi"


def test_pending_counts_go_out_settled_and_at_most_once_a_second() -> None:
    # The rule both backends publish by (``hostd.discovery.Pending``), on a clock of our own.
    p = Pending()
    assert p.due(0.0) and p.due_at() is None  # nothing held back
    assert not p.change(BoxSummary(), 0.0)  # the same counts are no change
    assert p.change(BoxSummary(1, 4, ("euchre",)), 10.0)
    assert p.due_at() == 10.0 + SETTLE and not p.due(10.1)
    assert p.change(BoxSummary(2, 8, ("euchre",)), 10.1)  # a burst: still one deadline
    assert p.due_at() == 10.0 + SETTLE and p.due(10.0 + SETTLE)
    p.published(10.2)
    assert p.due_at() is None and p.summary.open_tables == 2
    p.change(BoxSummary(3, 12, ("euchre",)), 10.3)  # soon after a publish: a second's wait
    assert p.due_at() == 10.2 + UPDATE_INTERVAL
