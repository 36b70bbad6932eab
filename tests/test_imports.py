"""Each layer imports only what DESIGN.md allows, checked in a fresh interpreter per module.

Also an AST check on ``engine``: no clock, no I/O modules, and no module-level ``random``
functions (only ``random.Random`` instances that the caller seeds).
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names) | {"__future__"}

# (module prefix, packages allowed, packages forbidden). Packages are named by their import
# name; an allowed package brings along what its own distribution requires (msgspec may pull
# in typing_extensions, trio pulls in attrs, outcome, sniffio...), but nothing else.
RULES: list[tuple[str, set[str], set[str]]] = [
    ("engine", {"engine"}, set()),
    ("hostd.protocol", {"engine", "hostd", "msgspec"}, set()),
    ("hostd.tables.core", {"engine", "hostd", "msgspec"}, set()),
    ("clients.kiosk", {"clients", "hostd", "engine", "msgspec", "pygame", "segno", "trio",
                       "zeroconf"}, set()),
    ("clients", {"clients", "hostd", "engine", "msgspec", "trio", "segno", "zeroconf"},
     {"pygame"}),
    ("hostd", {"*"}, {"pygame", "clients"}),
]
# The protocol and the table core are pure: no sockets or logging even from the stdlib.
PURE = ("hostd.protocol", "hostd.tables.core")
PURE_FORBIDDEN = {"socket", "logging", "trio", "structlog"}
# hostd.protocol imports engine for its data types; a client must still never call rules code.
CLIENT_FORBIDDEN_DIRECT = ("engine",)


@functools.cache
def _dist_of_module() -> dict[str, list[str]]:
    return {k: list(v) for k, v in importlib.metadata.packages_distributions().items()}


@functools.cache
def _closure(dist: str) -> frozenset[str]:
    """A distribution and everything it requires (without extras), by normalised name."""
    seen: set[str] = set()
    todo = [dist]
    while todo:
        d = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if d in seen:
            continue
        seen.add(d)
        try:
            reqs = importlib.metadata.requires(d) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for r in reqs:
            if "extra ==" in r:
                continue
            todo.append(re.split(r"[ ;<>=!~\[(]", r, maxsplit=1)[0])
    return frozenset(seen)


def expand(allowed: set[str]) -> set[str]:
    """Import names allowed: ``allowed`` plus the modules of their distributions' requirements."""
    dists: set[str] = set()
    for name in allowed:
        for d in _dist_of_module().get(name, []):
            dists |= _closure(d)
    out = set(allowed)
    for module, ds in _dist_of_module().items():
        if any(re.sub(r"[-_.]+", "-", d).lower() in dists for d in ds):
            out.add(module)
    return out


def modules() -> list[str]:
    out = []
    for pkg in ("engine", "hostd", "clients"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts[-1] == "__main__":
                continue
            out.append(".".join(parts))
    return out


def rule_for(module: str) -> tuple[set[str], set[str]]:
    for prefix, allowed, forbidden in RULES:
        if module == prefix or module.startswith(prefix + "."):
            return allowed, forbidden
    raise AssertionError(f"no import rule for {module}")


def _loaded(module: str | None) -> set[str]:
    code = (
        "import sys, json, importlib; m = sys.argv[1]; m and importlib.import_module(m); "
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, module or ""],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


@functools.cache
def baseline() -> frozenset[str]:
    """What a bare interpreter in this environment has loaded before importing anything."""
    return frozenset(_loaded(None))


def imported_by(module: str) -> set[str]:
    return _loaded(module) - baseline()


@pytest.mark.parametrize("module", modules())
def test_layer_imports(module: str) -> None:
    allowed, forbidden = rule_for(module)
    loaded = imported_by(module)
    got = loaded - STDLIB
    bad = got & forbidden
    if "*" not in allowed:
        bad |= got - expand(allowed)
    if module.startswith(PURE):
        bad |= loaded & PURE_FORBIDDEN
    if not module.startswith("hostd.cli") and module != "hostd.cli":
        bad |= got & {"click"}
    assert not bad, f"{module} pulls in {sorted(bad)}"


ENGINE_FORBIDDEN = {"time", "datetime", "os", "io", "socket", "pathlib", "threading", "asyncio",
                    "subprocess", "logging", "secrets", "uuid", "shutil", "tempfile", "select"}


@pytest.mark.parametrize("path", sorted((ROOT / "engine").rglob("*.py")), ids=lambda p: p.name)
def test_engine_is_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]}
            if node.module == "random":
                assert {a.name for a in node.names} <= {"Random"}, f"{path.name}: global random"
        else:
            names = set()
        assert not names & ENGINE_FORBIDDEN, f"{path.name} imports {names & ENGINE_FORBIDDEN}"
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            raise AssertionError(f"{path.name}:{node.lineno} uses the global random.{node.attr}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            raise AssertionError(f"{path.name}:{node.lineno} opens a file")


@pytest.mark.parametrize(
    "path", sorted((ROOT / "clients").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_clients_never_import_rules(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        mods: list[str] = []
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            mods = [node.module]
        for m in mods:
            assert m.split(".")[0] not in CLIENT_FORBIDDEN_DIRECT, f"{path.name} imports {m}"
