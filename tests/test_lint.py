"""The code is ruff-clean and mypy-clean: style is part of the product, so CI enforces it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff() -> None:
    out = run(str(BIN / "ruff"), "check", "engine", "hostd", "clients", "tablebox", "tests", "bench")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy() -> None:
    out = run(str(BIN / "mypy"))
    assert out.returncode == 0, out.stdout + out.stderr
