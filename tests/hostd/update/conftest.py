"""Fixtures of the update tests: wheels built once per session, one box per module."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostd.update import box as boxes
from tests.hostd.update import wheels


@pytest.fixture(scope="session")
def wheel_dir() -> Iterator[Path]:
    """1.0.0 (installed first), 1.1.0 (a good update), 1.2.0 (fails its start)."""
    folder = Path(tempfile.mkdtemp(prefix="tbw-"))
    for v in ("1.0.0", "1.1.0"):
        wheels.build(v, folder / v)
    wheels.build("1.2.0", folder / "1.2.0", boxes.BROKEN)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def box(wheel_dir: Path) -> Iterator[boxes.Box]:
    b = boxes.make_box(wheel_dir, next((wheel_dir / "1.0.0").glob("*.whl")))
    try:
        yield b
    finally:
        b.close()
