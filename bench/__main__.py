"""``python -m bench [--quick] [--only NAME,...] [--json FILE]``: every benchmark in turn.

What ``make bench`` runs (well under ten minutes on the 2-core development machine):
engines and AI (``bench.engine``), building and encoding each seat's view (``bench.views``),
the host under load (``bench.host``: paced latency at 1 to
500 tables, saturation, the floor, start-up), the daemon against the floor and the disk's
flush (``bench.compare``: CPU per move at 1 and 200 tables over TCP and WebSocket, paced
latency synced and not), the log pipeline (``bench.logs``), the kiosk's
frame time (``bench.kiosk``, with SDL's dummy drivers) and whether a computer player that
thinks hard delays other tables (``bench.daemon``'s AI isolation, threads and processes).
``--quick`` is a smoke run of each (seconds, not minutes). Discovery over mDNS
(``bench.discovery``) needs root and a network namespace: it runs only when asked for by
name (``--only discovery``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT = ("engine", "views", "host", "compare", "logs", "kiosk", "ai_isolation", "backgammon_ai")
HOST_ARGS: list[str] = []  # passed on to bench.host (``--nice``)


def engine(quick: bool) -> Any:
    from bench import engine as mod

    return mod.main(["--games", "20", "--decisions", "10"] if quick else [])


def views(quick: bool) -> Any:
    from bench import views as mod

    return mod.main(["--games", "3"] if quick else ["--games", "100"])


def host(quick: bool) -> Any:
    from bench import host as mod

    return mod.main((["--quick"] if quick else []) + HOST_ARGS)


def compare(quick: bool) -> Any:
    from bench import compare as mod

    return mod.main(["--quick"] if quick else [])


def logs(quick: bool) -> Any:
    from bench import logs as mod

    return mod.main(["--events", "2000"] if quick else [])


def kiosk(quick: bool) -> Any:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from bench import kiosk as mod

    return mod.main(["--frames", "3"] if quick else [])


def ai_isolation(quick: bool) -> Any:
    from bench import daemon as mod

    seconds = 1.0 if quick else 5.0
    rows = [mod.bench_ai_isolation(processes, seconds, "euchre") for processes in (0, 1)]
    for r in rows:
        print("ai isolation: " + ", ".join(f"{k} {v}" for k, v in r.items()), flush=True)
    return rows


def discovery(quick: bool) -> Any:
    from bench import discovery as mod

    return mod.main(["--runs", "1" if quick else "5"])


RUNS: dict[str, Callable[[bool], Any]] = {
    "engine": engine, "views": views, "host": host, "compare": compare, "logs": logs, "kiosk": kiosk,
    "ai_isolation": ai_isolation, "discovery": discovery,
    "backgammon_ai": lambda quick: __import__("bench.backgammon_ai", fromlist=["main"]).main(
        ["--games", "2" if quick else "10", "--random", "20" if quick else "100"]),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run of every benchmark")
    ap.add_argument("--only", help="comma-separated: " + ", ".join(RUNS))
    ap.add_argument("--json", type=Path, help="write every figure to this file")
    ap.add_argument("--nice", type=int, default=0,
                    help="bench.host's --nice: niceness of the processes it measures")
    args = ap.parse_args(argv)
    HOST_ARGS[:] = ["--nice", str(args.nice)] if args.nice else []
    names = args.only.split(",") if args.only else list(DEFAULT)
    unknown = [n for n in names if n not in RUNS]
    if unknown:
        ap.error(f"unknown benchmark {', '.join(unknown)} (choose from {', '.join(RUNS)})")
    out: dict[str, Any] = {}
    for name in names:
        t0 = time.monotonic()
        print(f"== {name}", flush=True)
        out[name] = RUNS[name](args.quick)
        print(f"== {name}: {time.monotonic() - t0:.0f} s", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
