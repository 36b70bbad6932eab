"""Real wheels of this checkout with any version, built without the network.

``pip wheel`` needs setuptools at the version pyproject.toml asks for (an isolated build
downloads it); a wheel is only a zip with a ``.dist-info``, so this writes one directly: every
file of the four packages, METADATA with the checkout's own dependencies, the console script,
and a RECORD pip verifies. ``changes`` replaces text in one file (a release that misbehaves).
"""

from __future__ import annotations

import base64
import hashlib
import re
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("engine", "hostd", "clients", "tablebox")


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
        b"=").decode()


def build(version: str, out: Path, changes: dict[str, tuple[str, str]] | None = None) -> Path:
    """``tablebox-<version>-py3-none-any.whl`` in ``out``; ``changes``: path -> (old, new)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    files: dict[str, bytes] = {}
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                files[p.relative_to(ROOT).as_posix()] = p.read_bytes()
    for path, (old, new) in (changes or {}).items():
        text = files[path].decode()
        assert old in text, (path, old)
        files[path] = text.replace(old, new, 1).encode()
    info = f"tablebox-{version}.dist-info"
    meta = ["Metadata-Version: 2.1", "Name: tablebox", f"Version: {version}",
            f"Requires-Python: {project['requires-python']}"]
    meta += [f"Requires-Dist: {re.sub(r'#.*', '', d).strip()}" for d in project["dependencies"]]
    meta += ["Provides-Extra: kiosk"] + [
        f'Requires-Dist: {d}; extra == "kiosk"' for d in project["optional-dependencies"]["kiosk"]]
    files[f"{info}/METADATA"] = ("\n".join(meta) + "\n").encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: tablebox-tests\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{info}/entry_points.txt"] = b"[console_scripts]\ntablebox = tablebox.cli:main\n"
    record = [f"{name},{_digest(data)},{len(data)}" for name, data in files.items()]
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"tablebox-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return wheel
