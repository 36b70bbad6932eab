"""Each layer imports only what docs/architecture.md allows, checked twice: in a fresh
interpreter per module (what importing it really loads), and on every module's AST (every
import statement, including those inside functions, which the first check cannot see until
the function runs).

Also: no import cycle between modules at run time, and an AST check on ``engine``: no clock,
no I/O modules, and no module-level ``random`` functions (only ``random.Random`` instances
that the caller seeds).
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
    # python-chess (GPL-3.0-or-later) is chess's rules library: pure Python, no I/O
    # (docs/architecture.md, "Layers"); no other game may lean on it.
    ("engine.chess", {"engine", "chess"}, set()),
    ("engine", {"engine"}, set()),
    ("hostd.protocol", {"engine", "hostd", "msgspec"}, set()),
    ("hostd.tables.core", {"engine", "hostd", "msgspec"}, set()),
    ("hostd.tables.parts", {"engine", "hostd", "msgspec"}, set()),
    ("clients.kiosk", {"clients", "hostd", "engine", "msgspec", "pygame", "segno", "trio",
                       "zeroconf"}, set()),
    ("clients", {"clients", "hostd", "engine", "msgspec", "trio", "segno", "zeroconf"},
     {"pygame"}),
    ("hostd", {"*"}, {"pygame", "clients", "tablebox"}),
    ("tablebox", {"*"}, {"pygame"}),
]
# The protocol and the table core are pure: no sockets or logging even from the stdlib.
PURE = ("hostd.protocol", "hostd.tables.core", "hostd.tables.parts")
PURE_FORBIDDEN = {"socket", "logging", "trio", "structlog"}
# hostd.protocol imports engine for its data types; a client must still never call rules code.
CLIENT_FORBIDDEN_DIRECT = ("engine",)
# The command line: the only modules that import click.
CLICK_MODULES = ("hostd.cli", "tablebox.cli")


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
    for pkg in ("engine", "hostd", "clients", "tablebox"):
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
    # Cython's runtime modules appear when a compiled package (zeroconf) loads: not a package.
    got = {m for m in loaded - STDLIB if not re.fullmatch(r"_cython_[0-9_]+|cython_runtime", m)}
    bad = got & forbidden
    if "*" not in allowed:
        bad |= got - expand(allowed)
    if module.startswith(PURE):
        bad |= loaded & PURE_FORBIDDEN
    if module not in CLICK_MODULES:
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


# -- every import statement, read from the AST -----------------------------------------------
# Which project packages each layer may name in an import, wherever the statement is (module
# level, inside a function, under TYPE_CHECKING), and which third-party packages. The most
# specific prefix wins. "*" allows any third-party package not in the layer's "never" set.
PROJECT = ("engine", "hostd", "clients", "tablebox", "bench", "tests")
AST_RULES: list[tuple[str, tuple[str, ...], set[str]]] = [
    ("engine.chess", ("engine",), {"chess"}),  # python-chess, for the chess game only
    ("engine", ("engine",), set()),
    ("hostd.protocol", ("engine", "hostd.protocol"), {"msgspec"}),
    # The core's frames are built from parts (hostd.tables.parts), which is as pure as it is.
    ("hostd.tables.core", ("engine", "hostd.protocol", "hostd.tables.core", "hostd.tables.parts"),
     {"msgspec"}),
    ("hostd.tables.parts", ("engine", "hostd.protocol", "hostd.tables.parts"), {"msgspec"}),
    ("hostd", ("engine", "hostd"), {"*"}),
    ("clients.kiosk", ("clients", "hostd.protocol"),
     {"msgspec", "trio", "trio_websocket", "segno", "zeroconf", "ifaddr", "pygame"}),
    ("clients", ("clients", "hostd.protocol"),
     {"msgspec", "trio", "trio_websocket", "segno", "zeroconf", "ifaddr"}),
    ("tablebox", ("engine", "hostd", "clients", "tablebox"), {"*"}),
    ("bench", ("engine", "hostd", "clients", "bench"), {"*"}),
]
NEVER_THIRD_PARTY = {"hostd": {"pygame", "click"}, "tablebox": {"pygame"}}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def statement_imports(source: str, module: str, is_package: bool = False) -> list[tuple[str, int]]:
    """Every module named by an import statement in ``source``: (absolute name, line)."""
    out: list[tuple[str, int]] = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            out.append((base, node.lineno))
            out += [(f"{base}.{a.name}", node.lineno) for a in node.names]
    return out


def ast_violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """What ``module``'s import statements name that its layer must not, as readable lines."""
    _, allowed, third = next(r for r in AST_RULES if module == r[0] or module.startswith(r[0] + "."))
    never = next((v for k, v in NEVER_THIRD_PARTY.items() if module.startswith(k)), set())
    if module in CLICK_MODULES:
        never = never - {"click"}
    bad = []
    for name, line in statement_imports(source, module, is_package):
        top = name.split(".")[0]
        if top in PROJECT:
            if not any(name == a or name.startswith(a + ".") for a in allowed) and not (
                    # "from hostd import protocol" names the package on the way to the module.
                    any(a.startswith(name + ".") for a in allowed)):
                bad.append(f"{module}:{line} imports {name}")
        elif top not in STDLIB and (top in never or ("*" not in third and top not in third)):
            bad.append(f"{module}:{line} imports {name}")
    return bad


def project_sources() -> list[Path]:
    return sorted(p for pkg in PROJECT[:-1] for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("path", project_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_import_statement_keeps_its_layer(path: Path) -> None:
    module = module_name(path)
    assert ast_violations(path.read_text(encoding="utf-8"), module,
                          path.name == "__init__.py") == []


def test_an_import_inside_a_function_cannot_hide_a_broken_layer() -> None:
    # What the fresh-interpreter check above misses: nothing runs the function on import.
    hidden = "def show():\n    from clients.kiosk import app\n    return app\n"
    assert ast_violations(hidden, "hostd.daemon") == ["hostd.daemon:2 imports clients.kiosk",
                                                      "hostd.daemon:2 imports clients.kiosk.app"]
    assert ast_violations("def f():\n    import pygame\n", "hostd.web.server") == [
        "hostd.web.server:2 imports pygame"]
    assert ast_violations("def f():\n    from engine import registry\n", "clients.terminal") == [
        "clients.terminal:2 imports engine", "clients.terminal:2 imports engine.registry"]
    assert ast_violations("def f():\n    from tests.hostd import helpers\n", "bench.host") != []
    assert ast_violations("def f():\n    from . import board\n", "engine.sequence.rules") == []
    # A relative import is resolved first: the protocol must not reach up into the tables.
    assert ast_violations("def f():\n    from ..tables import hub\n", "hostd.protocol.wire") == [
        "hostd.protocol.wire:2 imports hostd.tables",
        "hostd.protocol.wire:2 imports hostd.tables.hub"]
    # And the real tree passes (the parametrised test above checks each file).
    assert all(ast_violations(p.read_text(encoding="utf-8"), module_name(p),
                              p.name == "__init__.py") == [] for p in project_sources())


def _runtime_edges(path: Path, known: set[str]) -> set[str]:
    """Project modules ``path`` imports when it runs: TYPE_CHECKING blocks are skipped (they
    never execute), and ``from pkg import sub`` counts as importing ``pkg.sub``."""
    module = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in known]
            names = subs if len(subs) == len(node.names) else [node.module, *subs]
        out |= {n for n in names if n in known and n != module and not module.startswith(n + ".")}
    return out


def test_no_import_cycles_at_run_time() -> None:
    paths = {module_name(p): p for p in project_sources()}
    graph = {m: _runtime_edges(p, set(paths)) for m, p in paths.items()}
    cycles = []
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append(" -> ".join([*stack[stack.index(n):], n]))
            elif n not in state:
                visit(n, [*stack, n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == []
    assert "engine.president.state" in graph["engine.president.views"]  # the scan sees edges
