"""A smoke run of the host benchmark harness, so it cannot rot: one table, about a second each.

This checks the harness, not the speed: that the daemon and the floor start and answer, that
every seat of the table plays through both transports, that every intent is matched to its
reply and to every seat's update, that the daemon restarts on the data it left and restores
the table, and that nothing was refused or failed. No timing is asserted.
"""

from __future__ import annotations

import math

from bench import host


def test_paced_saturation_and_restart_figures_come_out() -> None:
    with host.workdir() as keep:
        pair = host.paced_pair(1, 1.0, 0.3, 1, keep)
        restarted = host.restart_figure(keep)
    for side in ("daemon", "floor"):
        r = pair[side]
        assert r["moves"] > 0, (side, r)
        assert r["own_tcp_ms"]["n"] > 0 and r["own_ws_ms"]["n"] > 0, (side, r)
        assert r["last_seat_ms"]["n"] == r["moves"] and r["last_missing"] == 0, (side, r)
        assert r["errors"] == 0, (side, r["error_samples"])
        assert set(r["rejects"]) <= {"stale_version"}, (side, r["rejects"])
        assert not math.isnan(r["last_seat_ms"]["p99"])
        assert r["rss_mb"] > 0 and r["server_cpu_us_per_move"] >= 0
    assert pair["daemon"]["ready_seconds"] > 0
    assert pair["daemon"]["moves_per_commit"] >= 1
    assert restarted["tables"] == 1 and restarted["ready_seconds"] > 0

    sat = host.saturation_pair(2, "tcp", 1.0, 0.3, 1, pair["daemon"]["state_bytes_mean"])
    for side in ("daemon", "floor"):
        assert sat[side]["moves"] > 0 and sat[side]["errors"] == 0, (side, sat[side])
        assert sat[side]["own_ws_ms"]["n"] == 0, "saturation over TCP used WebSocket"
    rows = host.verdicts({"paced": [pair], "saturation": {"tcp": sat},
                          "startup": {"restored": restarted}})
    assert [r["target"] for r in rows] == ["saturation over TCP: durable moves/s >="]
