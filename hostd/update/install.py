"""A verified wheel into its own folder, ``<releases>/<version>/``, with its own venv.

Owns the layout of one release folder: ``venv/`` (a venv made from the base interpreter) and
``RELEASE.json``, written last and atomically: a folder without it is an unfinished install
(a power cut mid-way) that is removed and redone, and no link ever points at one.

Dependencies come from the running environment, never from the network: every distribution
the new wheel requires (and the kiosk extra, and pip) that is installed here is hard-linked
into the new venv (copied across file systems), then pip installs the wheel with
``--no-index --find-links`` the download folder, so a dependency that is new in this release
must ship as a wheel in the release's own assets, signed in its SHA256SUMS. Finally the new
environment describes itself (``hostd.update.info``) and its version must be the wheel's.

Never switches links, never restarts anything, never touches the database.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path
from typing import Any

from hostd.update import UpdateError

MARKER = "RELEASE.json"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_REQ = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
RUNTIME_EXTRAS = ("kiosk",)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def folder(releases: Path, version: str) -> Path:
    if not _NAME.fullmatch(version) or version in ("current", "previous"):
        raise UpdateError(f"refused: {version!r} is not a release version")
    return releases / version


def complete(path: Path) -> dict[str, Any] | None:
    """The RELEASE.json of a finished install, else None."""
    try:
        data = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def wheel_metadata(wheel: Path) -> tuple[str, str, list[str]]:
    """(name, version, Requires-Dist lines) from the wheel's METADATA."""
    try:
        with zipfile.ZipFile(wheel) as z:
            meta = next(n for n in z.namelist()
                        if n.count("/") == 1 and n.endswith(".dist-info/METADATA"))
            msg = Parser().parsestr(z.read(meta).decode("utf-8"))
    except (zipfile.BadZipFile, StopIteration, OSError, UnicodeDecodeError):
        raise UpdateError(f"refused: {wheel.name} is not a wheel") from None
    return str(msg["Name"]), str(msg["Version"]), list(msg.get_all("Requires-Dist") or [])


def _wanted(requires: list[str]) -> list[str]:
    out = []
    for line in requires:
        req, _, marker = line.partition(";")
        m = _REQ.match(req)
        if m is None:
            continue
        if "extra" in marker and not any(f'"{e}"' in marker or f"'{e}'" in marker
                                         for e in RUNTIME_EXTRAS):
            continue
        out.append(m.group(1))
    return out


def _closure(names: list[str]) -> list[metadata.Distribution]:
    """The installed distributions ``names`` need, transitively (absent ones are skipped:
    pip then finds them among the release's own wheels, or refuses)."""
    seen: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = canonical(todo.pop())
        if name in seen or name == "tablebox":
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[name] = dist
        todo.extend(_wanted(list(dist.requires or [])))
    return list(seen.values())


def _site_packages(venv: Path) -> Path:
    return venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"


def _link_dist(dist: metadata.Distribution, site: Path) -> int:
    """Hard-link (or copy) a distribution's files under site-packages; the bytes copied."""
    copied = 0
    for f in dist.files or []:
        if f.parts and f.parts[0] == "..":
            continue  # scripts in bin/: their first line names the old venv; pip writes ours
        src = Path(str(dist.locate_file(f)))
        if not src.is_file():
            continue
        dst = site / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)
        except FileExistsError:
            continue
        except OSError:
            shutil.copy2(src, dst)
            copied += src.stat().st_size
    return copied


def _base_python() -> str:
    return getattr(sys, "_base_executable", None) or sys.executable


def _run(cmd: list[str], what: str, timeout: float = 600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INPUT"] = "1"
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                             check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise UpdateError(f"{what} failed: {e}") from None
    if out.returncode != 0:
        lines = (out.stderr or out.stdout).strip().splitlines()
        raise UpdateError(f"{what} failed: {lines[-1] if lines else out.returncode}")
    return out.stdout


def describe(venv: Path) -> dict[str, Any]:
    """What the release in ``venv`` says it is (``hostd.update.info``, isolated mode)."""
    out = _run([str(venv / "bin" / "python"), "-I", "-m", "hostd.update.info"],
               "the new release's self-description", timeout=60)
    try:
        info = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise UpdateError("the new release did not describe itself") from None
    return dict(info)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def install(wheel: Path, releases: Path, *, sha256: str = "",
            find_links: Path | None = None) -> tuple[Path, dict[str, Any]]:
    """Install ``wheel`` as ``<releases>/<version>``; (its folder, its RELEASE.json).

    Idempotent: an already complete folder of that version is kept as it is.
    """
    name, version, requires = wheel_metadata(wheel)
    if canonical(name) != "tablebox":
        raise UpdateError(f"refused: {wheel.name} is {name}, not tablebox")
    target = folder(releases, version)
    done = complete(target)
    if done is not None:
        return target, done
    t0 = time.perf_counter()
    releases.mkdir(parents=True, exist_ok=True)
    if target.exists():
        shutil.rmtree(target)  # an unfinished install: start again
    try:
        venv = target / "venv"
        _run([_base_python(), "-m", "venv", "--without-pip", str(venv)], "making the venv")
        site = _site_packages(venv)
        copied = 0
        for dist in _closure([*_wanted(requires), "pip"]):
            copied += _link_dist(dist, site)
        _run([str(venv / "bin" / "python"), "-I", "-m", "pip", "install", "--no-index",
              "--disable-pip-version-check", "--no-input", "--quiet",
              "--find-links", str(find_links or wheel.parent), str(wheel)],
             f"installing {wheel.name}")
        info = describe(venv)
        if info.get("version") != version:
            raise UpdateError(f"refused: the installed release says it is "
                              f"{info.get('version')}, the wheel {version}")
        record = {**info, "wheel": wheel.name, "sha256": sha256,
                  "installed_at": time.time(), "install_seconds": round(
                      time.perf_counter() - t0, 2), "copied_bytes": copied}
        _write_json(target / MARKER, record)
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    return target, record
