"""The daemon-against-floor comparison measures like for like (it checks the harness, not the
speed): the floor sends one full state per connection and then patches of the size it is
given, which the clients apply as they apply the daemon's; a saturated pair at one table
comes out with moves on both sides, the floor sized from the daemon's own frames; the disk's
flush is timed beside the data and leaves nothing behind.
"""

from __future__ import annotations

import signal
from pathlib import Path

from bench import compare, host
from tests.bench.test_loadgen import job, play


def test_the_floor_sends_a_full_state_then_patches_of_the_size_asked() -> None:
    server = host.start_floor(2000, "--patch", "300")
    try:
        out = play(job(server, 2, host.MIXED, 0.0), 0.3, 1.0)
    finally:
        server.stop(signal.SIGKILL)
    assert out["error_count"] == 0 and out["rejects"].keys() <= {"stale_version"}
    full = out["states"] - out["patches"]
    assert out["patches"] > 20 * full and full == 8  # one full state per connection
    assert 270 <= out["patch_bytes"] / out["patches"] <= 330
    assert 1800 <= (out["state_bytes"] - out["patch_bytes"]) / full <= 2200


def test_a_saturated_pair_gives_both_sides_and_sizes_the_floor_from_the_daemon() -> None:
    pair = compare._sat(1, "tcp", 0.8, 0.3)
    d, f = pair["daemon"], pair["floor"]
    for side in (d, f):
        assert side["moves"] > 0 and side["errors"] == 0, side
        assert side["patches"] > 0 and side["own_ws_ms"]["n"] == 0
    assert pair["cpu_ratio"] > 0
    # The floor's patches are the daemon's mean patch size (a few bytes of padding aside).
    assert abs(f["patch_bytes_mean"] - d["patch_bytes_mean"]) <= 0.05 * d["patch_bytes_mean"]
    again = compare._sat(1, "tcp", 0.8, 0.3, host.frame_sizes(d))
    assert not again["daemon_first"] and again["floor"]["patches"] > 0


def test_the_flush_is_timed_beside_the_data_and_leaves_nothing(tmp_path: Path) -> None:
    times = compare.flush_times(tmp_path, 20)
    assert len(times) == 20 and all(t > 0 for t in times)
    assert list(tmp_path.iterdir()) == []


def test_more_tables_than_one_address_may_hold_by_default_all_play() -> None:
    # 17 tables are 68 connections from 127.0.0.1, past the default per-address cap (64):
    # a benchmark daemon must admit them all, or its 200-table figures are 16 tables'.
    d = host.daemon_load(17, host.MIXED, 0.0, 1.0, 0.5, 1)
    assert d["errors"] == 0, d["error_samples"]
    assert d["moves"] > 0 and d["last_missing"] == 0
