"""How fast discovery is: a real ``tablebox serve`` with mDNS in a network namespace, watched
by ``tablebox discover --watch`` in the same namespace.

    sudo .venv/bin/python -m bench.discovery [--runs N] [--json]

Per run: seconds from spawning the daemon to the watcher seeing the box (``visible``), from
spawning ``tablebox tables new`` to the watcher seeing the new counts (``update``; the CLI's
own start-up is most of it: ``cli`` is the same command's time to return), and from SIGTERM to
the watcher seeing it go (``gone``). Needs root and iproute2 (like the tests);
nothing leaves the namespace.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from bench.netns import BIN, Procs, network_namespaces


def _is(kind: str, **fields: Any) -> Any:
    def pred(d: dict[str, Any]) -> bool:
        box = d.get("box", {})
        return d.get("event") == kind and all(box.get(k) == v for k, v in fields.items())
    return pred


async def one_run(tmp: Path) -> dict[str, float]:
    control = str(tmp / "c.sock")
    times: dict[str, float] = {}
    with network_namespaces(1) as [ns]:
        async with Procs() as procs:
            watch = await procs.start(ns.exec_args(
                str(BIN / "tablebox"), "discover", "--watch", "--json", "--mdns-backend", "zeroconf"),
                tmp / "watch.log")
            await trio.sleep(1.0)  # the watcher is browsing
            t0 = time.perf_counter()
            daemon = await procs.start(ns.exec_args(
                str(BIN / "tablebox"), "serve", "--data", str(tmp / "data"), "--control",
                control, "--bind", "0.0.0.0", "--mdns-backend", "zeroconf", "--no-bluetooth",
                "--box-name", "Bench",
                "--ai-speed", "0", "--ai-processes", "0"), tmp / "daemon.log", read=False)
            await watch.next_json(_is("added", instance="Bench"), 30)
            visible = time.perf_counter() - t0
            await trio.sleep(2.0)  # past the first announcements and the web port's update
            t1 = time.perf_counter()
            new = await procs.start([str(BIN / "tablebox"), "tables", "new", "euchre", "--ai",
                                     "random", "--control", control], tmp / "new.log")
            async with trio.open_nursery() as nursery:
                async def returned() -> None:
                    await new.output(30)
                    times["cli"] = time.perf_counter() - t1
                nursery.start_soon(returned)
                await watch.next_json(_is("updated", open_tables=1), 30)
                update = time.perf_counter() - t1
            t2 = time.perf_counter()
            daemon.process.terminate()
            await watch.next_json(_is("removed", instance="Bench"), 30)
            gone = time.perf_counter() - t2
            await daemon.wait(20)
    return {"visible": visible, "update": update, "cli": times["cli"], "gone": gone}


async def main_async(runs: int) -> list[dict[str, float]]:
    results = []
    for _ in range(runs):
        tmp = Path(tempfile.mkdtemp(prefix="tb-bench-"))
        try:
            results.append(await one_run(tmp))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return results


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.discovery")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    results = trio.run(main_async, a.runs)
    summary = {k: {"median": round(statistics.median(r[k] for r in results), 3),
                   "max": round(max(r[k] for r in results), 3)}
               for k in ("visible", "update", "cli", "gone")}
    if a.json:
        print(json.dumps({"runs": results, "summary": summary}))
    else:
        for k, v in summary.items():
            print(f"{k:8s} median {v['median']:.3f} s   max {v['max']:.3f} s   ({a.runs} runs)")


if __name__ == "__main__":
    main()
