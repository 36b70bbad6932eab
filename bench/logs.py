"""Log pipeline benchmark: what one event costs the daemon, by where it goes.

Run: ``.venv/bin/python -m bench.logs [--events N] [--json]``. Each case configures
``hostd.logs`` as the daemon does and logs a typical event (a table, a seat, a connection,
a game and a version: what ``step_committed`` carries) N times: to a JSON stream, to the
journal format, to the journal format plus the rotated file, and a debug event below the
level (the cost of a call that is filtered out). Streams go to /dev/null; the file to a
temporary directory, so the figure includes the write system call but not the disk.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

from hostd import logs

CONTEXT = {"table": "12", "seat": 2, "conn": 41, "game": "euchre", "version": 318}


def per_event_us(mode: logs.Mode, events: int, file: Path | None, below: bool) -> float:
    with open("/dev/null", "w") as sink:
        logs.configure("info", mode=mode, stream=sink, file=file,
                       file_bytes=64 * 1024 * 1024, file_backups=1)
        log = logs.get_logger("hostd.tables.runner", **CONTEXT)
        emit = log.debug if below else log.info
        for _ in range(200):  # warm-up: caches, the first handler call
            emit("step_committed", moves=1)
        t0 = time.perf_counter()
        for i in range(events):
            emit("step_committed", moves=i)
        took = time.perf_counter() - t0
        logs.reset()
    return took / events * 1e6


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="python -m bench.logs")
    ap.add_argument("--events", type=int, default=20000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        log_file = Path(tmp) / "tablebox.log"
        results = {
            "json_stream": per_event_us("json", args.events, None, False),
            "journal": per_event_us("journal", args.events, None, False),
            "journal_and_file": per_event_us("journal", args.events, log_file, False),
            "debug_filtered_out": per_event_us("journal", args.events, log_file, True),
        }
    report = {"machine": platform.machine(), "python": platform.python_version(),
              "events": args.events, "us_per_event": {k: round(v, 1) for k, v in results.items()}}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"log pipeline, {args.events} events each ({report['machine']}, "
              f"Python {report['python']}):")
        for name, us in report["us_per_event"].items():
            print(f"  {name:<20} {us:8.1f} µs/event")
    return report


if __name__ == "__main__":
    main()
