"""Issue 20's figures in one run: the daemon's CPU per move against the floor's, and latency
against the disk's own flush.

Run: ``.venv/bin/python -m bench.compare [--repeats 3] [--json FILE]`` (``make bench`` runs it
through ``python -m bench``; ``make bench BENCH_ARGS="--only compare"`` runs only this).

Each repeat measures, in this order, with fresh processes for every run (``bench.host``):

- the disk: ``FLUSH_SAMPLES`` appends of 4 KB to a file beside the daemon's data, each
  followed by ``fdatasync`` (what a synced SQLite WAL commit waits for), before the paced
  runs and again after them, pooled;
- saturation, daemon against floor, at 1 and at 200 tables, over TCP and over WebSocket
  (every seat moves the instant its turn begins; the daemon commits every move, synced,
  before telling anyone). The floor (``bench.floor``) is started with the full-state and
  patch sizes the daemon's run just measured, so it sends what a protocol 2 daemon sends:
  one full state per connection, then a patch frame of the same mean size per move. Which
  of the two goes first alternates between repeats, so a slow minute of the shared
  machine does not always land on the same side. The figure is CPU time (``/proc``, all
  threads) per move, not wall time, so other work on the machine counts as little as it
  can;
- paced 200 tables (a move per table every 250 ms) with commits not synced
  (``--no-sync-commits``) and synced (the default), and one paced table synced: intent ->
  the last seat's state, p50 and p99; then the floor under the same two paced loads, which
  says what the machine itself allowed in that minute (it does nothing but answer).

The figures printed are the medians over the repeats, with every repeat's value beside them
in the JSON, and each target met or not and by how much. Nothing here is asserted: it
measures. Every process started is ended (``bench.host`` owns them).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from bench import host

FLUSH_SAMPLES = 200
SAT_TABLES = (1, 200)
TRANSPORTS = ("tcp", "websocket")
PACED = ("paced_200_unsynced", "paced_200_synced", "one_table_synced", "floor_paced_200",
         "floor_one_table")
TARGETS = {
    "cpu_ratio_200": 1.3,  # daemon CPU per durable move / the floor's, 200 tables saturated
    "paced_200_unsynced_p99_ms": 5.0,
    "paced_200_synced_over_flush_p99_ms": 2.0,  # p99 at most the flush p99 + this
    "one_table_synced_over_flush_p50_ms": 0.5,  # p50 at most the flush median + this
}


def flush_times(where: Path, n: int = FLUSH_SAMPLES) -> list[float]:
    """Seconds per 4 KB append + ``fdatasync`` in ``where`` (the daemon's file system)."""
    path = where / "flush.probe"
    block = os.urandom(4096)
    out: list[float] = []
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            os.write(fd, block)
            os.fdatasync(fd)
            out.append(time.perf_counter() - t0)
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    return out


def _sat(n: int, transport: str, seconds: float, warmup: float,
         sizes: tuple[int, int] | None = None) -> dict[str, Any]:
    """Daemon and floor saturated at ``n`` tables. The floor goes first when ``sizes`` (the
    full-state and patch sizes an earlier daemon run measured) are given, else second, sized
    from the daemon's run just before it."""
    four = (transport,) * 4
    workers = 1 if n <= 10 else 2
    if sizes is None:
        d = host.daemon_load(n, four, 0.0, seconds, warmup, workers)
        f = host.floor_load(n, four, 0.0, seconds, warmup, workers, *host.frame_sizes(d))
    else:
        f = host.floor_load(n, four, 0.0, seconds, warmup, workers, *sizes)
        d = host.daemon_load(n, four, 0.0, seconds, warmup, workers)
    return {"daemon": d, "floor": f, "daemon_first": sizes is None,
            "cpu_ratio": round(d["server_cpu_us_per_move"]
                               / max(1, f["server_cpu_us_per_move"]), 2)}


def _paced(n: int, seconds: float, warmup: float, *extra: str) -> dict[str, Any]:
    return host.daemon_load(n, host.MIXED, host.PACED_DELAY, seconds, warmup,
                            host.auto_workers(n), *extra)


def one_repeat(i: int, seconds: float, paced_seconds: float, warmup: float,
               work: Path, before: dict[str, Any] | None = None) -> dict[str, Any]:
    """One of each run; ``before``: the previous repeat, whose daemon frame sizes let the
    floor go first in this one (the order alternates)."""
    out: dict[str, Any] = {"saturation": {}, "load_average_before": os.getloadavg()[0]}
    flushes = flush_times(work)
    for n in SAT_TABLES:
        for transport in TRANSPORTS:
            key = f"{n}/{transport}"
            sizes = host.frame_sizes(before["saturation"][key]["daemon"]) \
                if before is not None and i % 2 else None
            r = _sat(n, transport, seconds, warmup, sizes)
            out["saturation"][key] = r
            d, f = r["daemon"], r["floor"]
            print(f"  [{i + 1}] saturated {n} tables over {transport}: daemon "
                  f"{d['server_cpu_us_per_move']} us/move ({d['moves_per_second']} moves/s), "
                  f"floor {f['server_cpu_us_per_move']} us/move ({f['moves_per_second']} "
                  f"moves/s): {r['cpu_ratio']}x; frames {d['full_bytes_mean']} B full, "
                  f"{d['patch_bytes_mean']} B patch", flush=True)
    out["paced_200_unsynced"] = _paced(200, paced_seconds, warmup, "--no-sync-commits")
    out["paced_200_synced"] = d200 = _paced(200, paced_seconds, warmup)
    out["one_table_synced"] = d1 = _paced(1, paced_seconds, warmup)
    # The floor under the same paced loads: what the machine itself allowed in that minute.
    out["floor_paced_200"] = host.floor_load(200, host.MIXED, host.PACED_DELAY, paced_seconds,
                                             warmup, host.auto_workers(200),
                                             *host.frame_sizes(d200))
    out["floor_one_table"] = host.floor_load(1, host.MIXED, host.PACED_DELAY, paced_seconds,
                                             warmup, 1, *host.frame_sizes(d1))
    flushes += flush_times(work)
    out["flush_ms"] = host.dist(flushes)
    for key in PACED:
        d = out[key]
        print(f"  [{i + 1}] {key}: p50 {d['last_seat_ms']['p50']} / p99 "
              f"{d['last_seat_ms']['p99']} ms, {d['server_cpu_us_per_move']} us/move, "
              f"{d.get('moves_per_commit', '-')} moves/commit", flush=True)
    print(f"  [{i + 1}] flush (4 KB + fdatasync): p50 {out['flush_ms']['p50']} / p99 "
          f"{out['flush_ms']['p99']} ms; load average {os.getloadavg()[0]:.2f}", flush=True)
    return out


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def summarise(repeats: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the repeats of every figure the targets read."""
    s: dict[str, Any] = {"saturation": {}}
    for key in repeats[0]["saturation"]:
        rs = [r["saturation"][key] for r in repeats]
        s["saturation"][key] = {
            "daemon_us_per_move": _median([r["daemon"]["server_cpu_us_per_move"] for r in rs]),
            "floor_us_per_move": _median([r["floor"]["server_cpu_us_per_move"] for r in rs]),
            "daemon_moves_per_second": _median([r["daemon"]["moves_per_second"] for r in rs]),
            "floor_moves_per_second": _median([r["floor"]["moves_per_second"] for r in rs]),
            "cpu_ratio": _median([r["cpu_ratio"] for r in rs]),
            "cpu_ratios": [r["cpu_ratio"] for r in rs],
        }
    for key in PACED:
        s[key] = {q: _median([r[key]["last_seat_ms"][q] for r in repeats])
                  for q in ("p50", "p95", "p99")}
        s[key]["us_per_move"] = _median([r[key]["server_cpu_us_per_move"] for r in repeats])
        s[key]["p99s"] = [r[key]["last_seat_ms"]["p99"] for r in repeats]
    s["flush_ms"] = {q: _median([r["flush_ms"][q] for r in repeats]) for q in ("p50", "p99")}
    return s


def verdicts(s: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []

    def row(name: str, value: float, limit: float) -> None:
        rows.append({"target": name, "value": value, "limit": round(limit, 3),
                     "pass": value <= limit, "margin": round(limit - value, 3)})

    for transport in TRANSPORTS:
        row(f"CPU per move, 200 tables saturated over {transport}: daemon / floor <=",
            s["saturation"][f"200/{transport}"]["cpu_ratio"], TARGETS["cpu_ratio_200"])
    row("paced 200 tables, unsynced: p99 (ms) <=", s["paced_200_unsynced"]["p99"],
        TARGETS["paced_200_unsynced_p99_ms"])
    row("paced 200 tables, synced: p99 (ms) <= flush p99 + 2 =", s["paced_200_synced"]["p99"],
        s["flush_ms"]["p99"] + TARGETS["paced_200_synced_over_flush_p99_ms"])
    row("one table, synced: p50 (ms) <= flush p50 + 0.5 =", s["one_table_synced"]["p50"],
        s["flush_ms"]["p50"] + TARGETS["one_table_synced_over_flush_p50_ms"])
    return rows


def run(repeats: int, seconds: float, paced_seconds: float, warmup: float) -> dict[str, Any]:
    out: dict[str, Any] = {"machine": host.machine(), "repeats": []}
    with host.workdir() as work:
        for i in range(repeats):
            before = out["repeats"][-1] if out["repeats"] else None
            out["repeats"].append(one_repeat(i, seconds, paced_seconds, warmup, work, before))
    out["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out["summary"] = s = summarise(out["repeats"])
    out["targets"] = verdicts(s)
    print(f"medians of {repeats} repeats:", flush=True)
    for key, r in s["saturation"].items():
        print(f"  saturated {key}: daemon {r['daemon_us_per_move']} us/move, floor "
              f"{r['floor_us_per_move']} us/move, ratio {r['cpu_ratio']}x "
              f"(repeats {r['cpu_ratios']})", flush=True)
    for key in PACED:
        r = s[key]
        print(f"  {key}: p50 {r['p50']} / p95 {r['p95']} / p99 {r['p99']} ms "
              f"(p99s {r['p99s']}), {r['us_per_move']} us/move", flush=True)
    print(f"  flush: p50 {s['flush_ms']['p50']} / p99 {s['flush_ms']['p99']} ms", flush=True)
    for t in out["targets"]:
        print(f"target {t['target']} {t['limit']}: {t['value']} "
              f"{'PASS' if t['pass'] else 'FAIL'} (margin {t['margin']})", flush=True)
    m = out["machine"]
    print(f"machine: {m['cpus']} x {m['cpu_model']}, {m['platform']}, Python {m['python']}, "
          f"load average {m['load_average']} before, {m['load_average_after']} after",
          flush=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench.compare", description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=4.0, help="measured seconds, saturated")
    ap.add_argument("--paced-seconds", type=float, default=8.0)
    ap.add_argument("--warmup", type=float, default=1.5)
    ap.add_argument("--quick", action="store_true", help="one short repeat (a smoke run)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.quick:
        out = run(1, 1.0, 1.5, 0.5)
    else:
        out = run(args.repeats, args.seconds, args.paced_seconds, args.warmup)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
