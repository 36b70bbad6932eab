"""Over-the-air updates end to end: real wheels, a real feed over HTTP on 127.0.0.1, real
release venvs, the daemon restarted by a supervisor that behaves like systemd.

The box (conftest) runs 1.0.0; every test starts from there (``Box.reset``)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from hostd.update import switch, verify
from tests.hostd.update.box import Box, wait_for


def _wheel(wheel_dir: Path, version: str) -> Path:
    return next((wheel_dir / version).glob("*.whl"))


def _signed(box: Box, wheel: Path, tmp: Path) -> list[Path]:
    folder = tmp / wheel.stem
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / wheel.name
    shutil.copy(wheel, copy)
    sums, sig = verify.sign(box.key, [copy])
    return [copy, sums, sig]


def _publish(box: Box, version: str, files: list[Path]) -> None:
    box.write_config(box.feed.publish([box.feed.release(version, files)]))


def _unchanged(box: Box, pid: int) -> None:
    assert switch.linked(box.releases, "current") == "1.0.0"
    assert switch.installed(box.releases) == ["1.0.0"]
    s = box.status()
    assert (s["version"], s["pid"]) == ("1.0.0", pid)


def test_an_update_installs_and_switches(box: Box, wheel_dir: Path, tmp_path: Path) -> None:
    box.reset("1.0.0")
    wheel = _wheel(wheel_dir, "1.1.0")
    folder = tmp_path / "signed"
    folder.mkdir()
    shutil.copy(wheel, folder / wheel.name)
    signed = box.tablebox("release", "sign", "--key", str(box.key), str(folder / wheel.name),
                         config=False)
    assert signed.returncode == 0, signed.stderr
    box.write_config(box.feed.publish([box.feed.release(
        "1.1.0", [folder / wheel.name, folder / "SHA256SUMS", folder / "SHA256SUMS.sig"],
        notes="Faster dealing.\nA new game.")]))

    check = box.tablebox("update", "--check", "--json")
    assert check.returncode == 0, check.stderr
    found = json.loads(check.stdout)
    assert found["installed"] == "1.0.0" and found["available"]
    assert found["newest"]["version"] == "1.1.0" and "A new game." in found["newest"]["notes"]
    text = box.tablebox("update", "--check").stdout
    assert "installed: 1.0.0" in text and "newest: 1.1.0 (available)" in text
    checks = {c["name"]: c for c in json.loads(box.tablebox("doctor", "--json").stdout)["checks"]}
    assert "1.1.0 is available" in checks["last check"]["detail"]

    t0 = time.perf_counter()
    applied = box.tablebox("update", "--apply", "--json")
    seconds = time.perf_counter() - t0
    assert applied.returncode == 0, applied.stdout + applied.stderr + box.log()[-3000:]
    report = json.loads(applied.stdout)
    assert report["to"] == "1.1.0" and not report["rolled_back"]
    print(f"\napply took {seconds:.1f} s: {report['seconds']}")
    assert box.status()["version"] == "1.1.0"
    assert switch.linked(box.releases, "current") == "1.1.0"
    assert switch.linked(box.releases, "previous") == "1.0.0"
    assert switch.read_state(box.releases)["trial"] is None

    doctor = box.tablebox("doctor", "--json")
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert "running 1.1.0" in checks["release"]["detail"]
    assert "previous -> 1.0.0" in checks["release"]["detail"]
    assert box.feed.url in checks["update feed"]["detail"]
    assert _welcome(box)["release"] == "1.1.0"  # what makes an open web page reload

    again = box.tablebox("update", "--apply")
    assert again.returncode == 0 and "up to date: 1.1.0" in again.stdout

    back = box.tablebox("update", "--rollback")
    assert back.returncode == 0, back.stdout + back.stderr
    assert box.status()["version"] == "1.0.0"
    assert switch.linked(box.releases, "current") == "1.0.0"


@pytest.mark.parametrize("damage", ["checksum", "signature", "unsigned"])
def test_a_bad_release_is_refused_with_one_line(box: Box, wheel_dir: Path, tmp_path: Path,
                                                damage: str) -> None:
    box.reset("1.0.0")
    shutil.rmtree(box.releases / "1.1.0", ignore_errors=True)
    pid = box.status()["pid"]
    wheel, sums, sig = _signed(box, _wheel(wheel_dir, "1.1.0"), tmp_path)
    files = [wheel, sums, sig]
    if damage == "checksum":
        with wheel.open("ab") as f:
            f.write(b"\0")  # still the same name, no longer the same bytes
        expected = "the checksum of tablebox-1.1.0-py3-none-any.whl does not match"
    elif damage == "signature":
        sums.write_text(sums.read_text() + f"{'0' * 64}  extra.whl\n")  # signed was the old
        expected = "does not verify under a trusted release key"
    else:
        files = [wheel, sums]
        expected = "the release is unsigned"
    _publish(box, "1.1.0", files)
    out = box.tablebox("update", "--apply")
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: refused:") and expected in lines[0], (
        out.stderr)
    _unchanged(box, pid)
    assert not [p for p in box.releases.iterdir() if p.name.startswith(".download-")]


def _welcome(box: Box) -> dict[str, Any]:
    port = box.status()["listening"]["tcp"]["port"]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        f = s.makefile("rwb")
        f.write(b'{"type": "hello", "id": 1, "protocol": 2, "client": "test"}\n')
        f.flush()
        return dict(json.loads(f.readline()))


def _seat_a_person(box: Box) -> socket.socket:
    """A person at a sequence table, connected over TCP and seated."""
    from hostd.control import request

    t = request(box.control, "tables.new", game="sequence", players=2)
    port = box.status()["listening"]["tcp"]["port"]
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    f = s.makefile("rwb")
    for msg in ({"type": "hello", "id": 1, "protocol": 2, "client": "test"},
                {"type": "join", "id": 2, "code": t["code"], "name": "Ada"}):
        f.write(json.dumps(msg).encode() + b"\n")
        f.flush()
    while True:
        reply = json.loads(f.readline())
        if reply.get("type") == "joined":
            return s
        assert reply.get("type") != "rejected", reply


def test_an_update_waits_while_a_person_plays(box: Box, wheel_dir: Path,
                                              tmp_path: Path) -> None:
    box.reset("1.0.0")
    _publish(box, "1.1.0", _signed(box, _wheel(wheel_dir, "1.1.0"), tmp_path))
    person = _seat_a_person(box)
    pid = box.status()["pid"]
    proc = box.tablebox("update", "--apply", background=True)
    out = box.root / "updater.out"
    try:
        wait_for(lambda: "waiting: a person is playing" in out.read_text(), 60,
                 "the updater to wait")
        time.sleep(1.5)  # it keeps waiting: nothing switched, nobody was cut off
        assert proc.poll() is None
        assert box.status()["pid"] == pid and switch.linked(box.releases, "current") == "1.0.0"
        person.close()  # they finish and leave
        assert proc.wait(90) == 0, out.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert box.status()["version"] == "1.1.0"


def test_a_release_that_fails_its_start_is_rolled_back(box: Box, wheel_dir: Path,
                                                       tmp_path: Path) -> None:
    box.reset("1.0.0")
    _publish(box, "1.2.0", _signed(box, _wheel(wheel_dir, "1.2.0"), tmp_path))
    out = box.tablebox("update", "--apply")
    assert out.returncode == 1, out.stdout
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: rolled back to 1.0.0: release 1.2.0")
    assert box.status()["version"] == "1.0.0"
    assert switch.linked(box.releases, "current") == "1.0.0"
    state = switch.read_state(box.releases)
    assert state["last_rollback"]["from"] == "1.2.0" and state["last_rollback"]["reason"]
    assert "1.2.0" in state["refused"]
    doctor = box.tablebox("doctor", "--json")
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["last rollback"]["status"] == "warn"
    auto = box.tablebox("update", "--apply", "--auto", "--update", "apply-when-idle")
    # the automatic run skips a release that was rolled back
    assert auto.returncode == 0 and "rolled back before" in auto.stdout


STEPS = ["installed", "trial", "previous-tmp", "previous", "current-tmp", "current",
         "restarted"]
# Each kill costs about 30 s (two daemon starts and two update runs). `make test` kills before
# the switch, half way through it (a temporary link made, the real one not yet renamed) and
# after the restart; `make chaos` kills at every step.
QUICK_STEPS = ("trial", "current-tmp", "restarted")


@pytest.mark.parametrize("step", [s if s in QUICK_STEPS else pytest.param(s, marks=pytest.mark.slow)
                                  for s in STEPS])
def test_a_kill_at_any_step_of_the_switch_leaves_a_box_that_starts(
        box: Box, wheel_dir: Path, tmp_path: Path, step: str) -> None:
    _publish(box, "1.1.0", _signed(box, _wheel(wheel_dir, "1.1.0"), tmp_path))
    box.reset("1.0.0")
    out = box.tablebox("update", "--apply", kill_at=step)
    assert out.returncode == -9, (step, out.stdout, out.stderr)
    current = switch.linked(box.releases, "current")
    assert current in ("1.0.0", "1.1.0"), step
    target = os.path.realpath(box.releases / "current")
    assert (Path(target) / "RELEASE.json").is_file(), step
    # The power comes back: the service starts from the link, on one complete release.
    box.stop()
    box.start()
    assert box.status()["version"] == current, step
    # ... and the next update run finishes the job.
    done = box.tablebox("update", "--apply")
    assert done.returncode == 0, (step, done.stdout, done.stderr)
    assert box.status()["version"] == "1.1.0", step


def test_the_daemon_applies_by_itself_when_idle(box: Box, wheel_dir: Path,
                                                 tmp_path: Path) -> None:
    """``update = "apply-when-idle"``: the daemon's own task sees the release and starts the
    updater, which outlives the restart it causes."""
    box.reset("1.0.0")
    shutil.rmtree(box.releases / "1.1.0", ignore_errors=True)
    signed = _signed(box, _wheel(wheel_dir, "1.1.0"), tmp_path)
    updater = f"{box.releases / 'current' / 'venv' / 'bin' / 'tablebox'} update --apply --auto"
    box.write_config(box.feed.publish([box.feed.release("1.1.0", signed)]),
                     update="apply-when-idle", update_interval=1.0,
                     update_apply_command=f"{updater} --config {box.config}")
    box.reset("1.0.0")  # restarted with that configuration
    wait_for(lambda: box.version() == "1.1.0", 60, "the update by itself")
    # The updater ends once the trial window is over: only then is the box ours again.
    wait_for(lambda: (switch.read_state(box.releases).get("last_update") or {}).get("to")
             == "1.1.0", 30, "the updater to confirm 1.1.0")
    wait_for(lambda: box.status()["update"] is not None, 10, "the daemon's check")
    assert switch.linked(box.releases, "previous") == "1.0.0"
    box.write_config(box.feed.publish([]))
    box.reset("1.0.0")
