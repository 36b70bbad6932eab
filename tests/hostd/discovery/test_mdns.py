"""mDNS advertising and browsing between real processes in network namespaces the test creates.

The advertiser is ``run_mdns`` driven by ``tests/hostd/discovery/advertise.py``; the observer
is the real ``tablebox discover --watch --json``. Nothing here sends mDNS outside a namespace.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from bench.netns import BIN, Netns, Proc, Procs, link, network_namespaces
from hostd.discovery import MAX_LABEL_BYTES, instance_label
from hostd.protocol import PROTOCOL_VERSION

SEEN = 20.0  # seconds to wait for something to appear on the network


# This file tests our own responder: never Avahi, even on a machine whose system bus runs one
# (which would carry these namespaced daemons onto the real network).
ZEROCONF = ("--mdns-backend", "zeroconf")

async def advertiser(procs: Procs, ns: Netns, tmp: Path, tag: str, name: str,
                     *extra: str) -> Proc:
    return await procs.start(ns.exec_args(
        str(BIN / "python"), "-m", "tests.hostd.discovery.advertise", "--name", name,
        "--data", str(tmp / f"data-{tag}"), *extra), tmp / f"adv-{tag}.log", stdin=True,
        read=False)


async def watcher(procs: Procs, ns: Netns, tmp: Path) -> Proc:
    return await procs.start(ns.exec_args(
        str(BIN / "tablebox"), "discover", "--watch", "--json", "--timeout", "120",
        *ZEROCONF),
        tmp / "watch.log")


def event(kind: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    def pred(d: dict[str, Any]) -> bool:
        box = d.get("box", {})
        return d.get("event") == kind and all(box.get(k) == v for k, v in fields.items())
    return pred


def summary(tables: int, free: int, games: list[str]) -> dict[str, Any]:
    return {"open_tables": tables, "free_seats": free, "games": games}


def box_id(tmp: Path, tag: str) -> str:
    return (tmp / f"data-{tag}" / "box-id").read_text().strip()


async def test_advertise_update_and_goodbye(tmp_path: Path) -> None:
    # A long name in several scripts, with a dot: cut to 63 bytes on a character boundary.
    name = "Café No.5 — " + "ĉambro " * 12
    with network_namespaces(1) as [ns]:
        async with Procs() as procs:
            watch = await watcher(procs, ns, tmp_path)
            adv = await advertiser(procs, ns, tmp_path, "a", name, "--port", "7421",
                                   "--http-port", "8081")
            box = (await watch.next_json(event("added"), SEEN))["box"]
            assert box["box_id"] == box_id(tmp_path, "a")
            assert box["port"] == 7421
            assert box["protocol"] == PROTOCOL_VERSION
            assert box["open_tables"] == 0 and box["free_seats"] == 0
            assert box["addresses"] == ["127.0.0.1"]  # the namespace has only loopback
            assert len(box["instance"].encode()) <= MAX_LABEL_BYTES
            assert len(box["name"].encode()) <= MAX_LABEL_BYTES
            assert box["instance"] == instance_label(name) and "." not in box["instance"]
            assert name.startswith(box["name"])  # a prefix of whole characters
            await watch.next_json(event("updated", http_port=8081), SEEN)

            await adv.send_line(summary(1, 3, ["euchre"]))
            upd = (await watch.next_json(event("updated", open_tables=1), SEEN))["box"]
            assert upd["free_seats"] == 3 and upd["games"] == ["euchre"]
            assert upd["web"] == "http://127.0.0.1:8081/"

            await adv.close_stdin()
            await watch.next_json(event("removed", box_id=box["box_id"]), SEEN)
            assert await adv.wait(10) == 0

            # The id is stable across restarts.
            await advertiser(procs, ns, tmp_path, "a", name)
            again = await watch.next_json(event("added"), SEEN)
            assert again["box"]["box_id"] == box["box_id"]


async def test_a_burst_of_changes_is_one_update(tmp_path: Path) -> None:
    with network_namespaces(1) as [ns]:
        async with Procs() as procs:
            watch = await watcher(procs, ns, tmp_path)
            adv = await advertiser(procs, ns, tmp_path, "a", "Burst")
            await watch.next_json(event("added"), SEEN)
            await watch.next_json(event("updated", http_port=8080), SEEN)
            for n in range(1, 11):  # ten table changes within half a second
                await adv.send_line(summary(n, n * 2, ["sequence"]))
                await trio.sleep(0.05)
            final = await watch.next_json(event("updated", open_tables=10), SEEN)
            assert final["box"]["free_seats"] == 20
            await watch.expect_none(event("updated"), 3)  # nothing further arrives
            updates = [json.loads(x) for x in watch.lines if '"updated"' in x]
            counts = [u["box"]["open_tables"] for u in updates if u["box"]["open_tables"]]
            assert len(counts) <= 2, counts  # a change right away, then the rest as one


async def test_a_second_box_with_the_same_name_is_renamed(tmp_path: Path) -> None:
    with network_namespaces(1) as [ns]:
        async with Procs() as procs:
            watch = await watcher(procs, ns, tmp_path)
            await advertiser(procs, ns, tmp_path, "a", "Corner")
            a = await watch.next_json(event("added", instance="Corner"), SEEN)
            await advertiser(procs, ns, tmp_path, "b", "Corner")
            b = await watch.next_json(event("added", instance="Corner (2)"), SEEN)
            assert a["box"]["box_id"] != b["box"]["box_id"]
            assert b["box"]["name"] == "Corner"  # the TXT keeps the box's own name
            await watch.expect_none(event("removed"), 4)  # and the first keeps its name


async def test_two_boxes_announcing_one_name_end_with_distinct_names(tmp_path: Path) -> None:
    with network_namespaces(1) as [ns]:
        async with Procs() as procs:
            watch = await watcher(procs, ns, tmp_path)
            # Both announce "Twins" without seeing each other: our own rule must split them.
            for tag in "ab":
                await advertiser(procs, ns, tmp_path, tag, "Twins", "--blind-start")
            await watch.next_json(event("added", instance="Twins (2)"), 30)
            await trio.sleep(4)  # let re-announcements settle, then look at the final picture
            probe = await procs.start(ns.exec_args(
                str(BIN / "tablebox"), "discover", "--json", "--timeout", "4", *ZEROCONF),
                tmp_path / "probe.log")
            out = json.loads(await probe.output(30))
            assert probe.process.returncode == 0
            found = {b["instance"]: b["box_id"] for b in out["boxes"]}
            ids = {box_id(tmp_path, t): t for t in "ab"}
            assert set(found) == {"Twins", "Twins (2)"}, out
            assert set(found.values()) == set(ids)
            assert found["Twins"] == min(ids)  # the smaller id keeps the name
            loser = ids[found["Twins (2)"]]
            assert "mdns_name_conflict" in (tmp_path / f"adv-{loser}.log").read_text()


async def test_interfaces_choose_where_the_box_is_seen(tmp_path: Path) -> None:
    # Two namespaces joined by a veth cable: the box sits in one, a phone in the other.
    with network_namespaces(2) as [box, phone]:
        link(box, "tbx0", "10.99.0.1/24", phone, "tbx1", "10.99.0.2/24")
        async with Procs() as procs:
            watch = await watcher(procs, phone, tmp_path)
            await advertiser(procs, box, tmp_path, "lan", "Cable", "--interface", "tbx0")
            await advertiser(procs, box, tmp_path, "lo", "Hidden", "--interface", "lo")
            seen = await watch.next_json(event("added", instance="Cable"), SEEN)
            assert seen["box"]["addresses"] == ["10.99.0.1"]
            # A box advertising on loopback only is not seen over the cable.
            await watch.expect_none(event("added", instance="Hidden"), 5)


async def test_the_daemon_advertises_its_tables_and_says_goodbye(tmp_path: Path) -> None:
    short = Path(tempfile.mkdtemp(prefix="tb-"))  # Unix socket paths must stay short
    control = str(short / "c.sock")
    try:
        with network_namespaces(1) as [ns]:
            async with Procs() as procs:
                watch = await watcher(procs, ns, tmp_path)
                daemon = await procs.start(ns.exec_args(
                    str(BIN / "tablebox"), "serve", "--data", str(tmp_path / "data"),
                    "--control", control, "--bind", "0.0.0.0", "--tcp-port", "0",
                    "--http-port", "0", "--mdns", *ZEROCONF, "--no-bluetooth", "--box-name", "Salle",
                    "--ai-speed", "0", "--ai-processes", "0"), tmp_path / "daemon.log",
                    read=False)
                box = (await watch.next_json(event("added", instance="Salle"), SEEN))["box"]
                status = json.loads(await cli(procs, tmp_path, "status", "--json",
                                              "--control", control))
                assert box["port"] == status["listening"]["tcp"]["port"]  # the bound port
                assert box["open_tables"] == 0
                http = await watch.next_json(event("updated", instance="Salle"), SEEN)
                assert http["box"]["http_port"] == status["listening"]["http"]["port"]

                made = json.loads(await cli(procs, tmp_path, "tables", "new", "euchre",
                                            "--ai", "random", "--control", control, "--json"))
                upd = await watch.next_json(event("updated", open_tables=1), SEEN)
                assert upd["box"]["free_seats"] == 4 and upd["box"]["games"] == ["euchre"]

                # `tablebox discover` lists the box and asks it for its tables.
                found = json.loads(await cli(procs, tmp_path, "discover", "--json",
                                             "--timeout", "3", *ZEROCONF, netns=ns))
                [listed] = found["boxes"]
                assert [t["code"] for t in listed["tables"]] == [made["code"]]

                daemon.process.terminate()
                await watch.next_json(event("removed", instance="Salle"), SEEN)
                assert await daemon.wait(15) == 0
    finally:
        shutil.rmtree(short, ignore_errors=True)


async def cli(procs: Procs, tmp: Path, *args: str, netns: Netns | None = None) -> str:
    cmd = [str(BIN / "tablebox"), *args]
    proc = await procs.start(netns.exec_args(*cmd) if netns else cmd,
                             tmp / f"cli-{len(procs.procs)}.log")
    out = await proc.output(30)
    assert proc.process.returncode == 0, (out, proc.log.read_text())
    return out


async def test_an_interface_that_comes_up_late_is_announced(tmp_path: Path) -> None:
    # The Pi's Wi-Fi often comes up after the service: the box waits, then announces.
    with network_namespaces(2) as [box, phone]:
        async with Procs() as procs:
            await advertiser(procs, box, tmp_path, "a", "Late", "--interface", "tbx0",
                             "--refresh", "1")
            with trio.fail_after(SEEN):  # started, looked for tbx0, found nothing
                while "mdns_waiting_for_interface" not in (tmp_path / "adv-a.log").read_text():
                    await trio.sleep(0.1)
            link(box, "tbx0", "10.99.0.1/24", phone, "tbx1", "10.99.0.2/24")
            watch = await watcher(procs, phone, tmp_path)
            seen = await watch.next_json(event("added", instance="Late"), SEEN)
            assert seen["box"]["addresses"] == ["10.99.0.1"]
