"""The line between the starter and the library, and the type-checking policy that holds it.

- The library (`src/contextdb_livekit`) imports nothing of the starter: not its line, its
  tools, its fact kinds, its booking client, nor the test kit.
- The starter (agent.py, line.py, drain.py, tools/, memory/, calendar_client/) imports the
  library only through its two public modules, `contextdb_livekit.api` and
  `contextdb_livekit.hosting`, and only names in their `__all__`, which the library's README
  lists: a fork that upgrades the library relies on exactly that.
- No modules import each other in a loop (the library, the test kit, the scenarios), and no
  layer imports one above it: in the library identity < memory < stores < delivery < kit <
  reading < worker < caller_data < api, hosting; outside it the library < the starter < testkit <
  scenarios < bench < tests.
- CI type-checks both (mypy, before the tests); a `type: ignore` names its error code and says
  why, and the only modules let through untyped are third-party packages that ship no type
  information, each named.
- The library's own tests (src/tests) import nothing of the starter, its scenarios, the
  benches or the starter's tests (tests/), nor a testkit module that does (`testkit.line_host`
  ...): they test the library alone.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "contextdb_livekit"
LIBRARY_README = ROOT / "src" / "README.md"
LIBRARY_TESTS = ROOT / "src" / "tests"
STARTER_PACKAGES = ("tools", "memory", "calendar_client", "billing_client")
STARTER_MODULES = ("agent.py", "line.py", "drain.py")
# Top-level names of everything that is not the library: the starter, and what tests it.
NOT_THE_LIBRARY = {
    *STARTER_PACKAGES,
    *(name.removesuffix(".py") for name in STARTER_MODULES),
    "testkit",
    "scenarios",
    "bench",
    "tests",
}
# What the library's own tests (src/tests) may not import: the starter and its scenarios, the
# benches, and the starter's tests (a helper both suites share goes in testkit/, and only one
# that imports none of these).
NOT_FOR_THE_LIBRARY_TESTS = {
    *STARTER_PACKAGES,
    *(name.removesuffix(".py") for name in STARTER_MODULES),
    "scenarios",
    "bench",
    "tests",
}
PUBLIC = ("contextdb_livekit.api", "contextdb_livekit.hosting")


def imports_of(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Every (module, names) a file imports, at any depth (function-level imports included)."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, tuple(alias.name for alias in node.names)))
    return found


def starter_files() -> list[Path]:
    files = [ROOT / name for name in STARTER_MODULES]
    for package in STARTER_PACKAGES:
        files.extend(sorted((ROOT / package).rglob("*.py")))
    return files


def library_imports_of_the_starter(folder: Path) -> dict[str, list[str]]:
    crossing: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        hits = [m for m, _ in imports_of(path) if m.split(".")[0] in NOT_THE_LIBRARY]
        if hits:
            crossing[str(path.relative_to(folder))] = hits
    return crossing


def private_imports(files: list[Path]) -> list[str]:
    """Each import of the library from outside its public modules or their `__all__`."""
    public = {name: set(importlib.import_module(name).__all__) for name in PUBLIC}
    found = []
    for path in files:
        for module, names in imports_of(path):
            if not module.startswith("contextdb_livekit"):
                continue
            if module not in public:
                found.append(f"{path.name}: {module}")
            else:
                found.extend(f"{path.name}: {module}.{n}" for n in names if n not in public[module])
    return found


def test_the_library_imports_nothing_of_the_starter() -> None:
    assert library_imports_of_the_starter(PACKAGE) == {}


def test_the_library_check_sees_function_level_imports(tmp_path: Path) -> None:
    (tmp_path / "late.py").write_text("def f():\n    from memory.facts import fact_kind\n")
    assert list(library_imports_of_the_starter(tmp_path).values()) == [["memory.facts"]]


def line_kit_modules(testkit: Path) -> set[str]:
    """The testkit modules that import the starter (or what tests it), directly or through
    another testkit module: `testkit.line_host`, `testkit.visit_requests`, ..."""
    files = module_files({"testkit": testkit})
    graph = import_graph({"testkit": testkit})
    found = {
        name
        for name, path in files.items()
        if any(m.split(".")[0] in NOT_FOR_THE_LIBRARY_TESTS for m, _ in imports_of(path))
    }
    while more := {name for name, targets in graph.items() if targets & found} - found:
        found |= more
    return found


def library_test_imports_of_the_starter(
    folder: Path, testkit: Path = ROOT / "testkit"
) -> dict[str, list[str]]:
    line_kit = line_kit_modules(testkit)
    crossing: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        hits = [
            module
            for module, names in imports_of(path)
            if module.split(".")[0] in NOT_FOR_THE_LIBRARY_TESTS
            or module in line_kit
            or any(f"{module}.{name}" in line_kit for name in names)
        ]
        if hits:
            crossing[str(path.relative_to(folder))] = hits
    return crossing


def test_the_library_tests_import_nothing_of_the_starter() -> None:
    assert len(list(LIBRARY_TESTS.rglob("test_*.py"))) > 20
    assert library_test_imports_of_the_starter(LIBRARY_TESTS) == {}


@pytest.mark.parametrize(
    ("source", "hit"),
    [
        ("def f():\n    from memory.facts import fact_kind\n", "memory.facts"),
        ("import scenarios.text_call\n", "scenarios.text_call"),
        ("from tests.memory.support import day_request\n", "tests.memory.support"),
        ("from testkit.line_host import local_host\n", "testkit.line_host"),
        ("from testkit import visit_requests\n", "testkit"),
        ("from testkit.visit_replies import classify_reply\n", "testkit.visit_replies"),
    ],
)
def test_the_library_tests_check_sees_the_starter_and_the_line_kit(
    tmp_path: Path, source: str, hit: str
) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "test_late.py").write_text(source)
    assert library_test_imports_of_the_starter(tmp_path) == {"memory/test_late.py": [hit]}


def test_the_line_kit_is_what_reaches_the_starter() -> None:
    line_kit = line_kit_modules(ROOT / "testkit")
    assert {"testkit.line_host", "testkit.visit_requests", "testkit.realtime_call"} <= line_kit
    assert not line_kit & {"testkit.fixtures", "testkit.cloud_standin", "testkit.postgres"}


def test_the_starter_imports_only_the_public_api() -> None:
    files = starter_files()
    assert len(files) > 20
    assert private_imports(files) == []


@pytest.mark.parametrize(
    "source",
    [
        "from contextdb_livekit.kit.actions import GatedAction\n",  # a private module
        "def f():\n    from contextdb_livekit.api import _anything\n",  # a name not in __all__
        "import contextdb_livekit.worker.call\n",
    ],
)
def test_the_public_api_check_fails_on_a_private_import(tmp_path: Path, source: str) -> None:
    (tmp_path / "fork.py").write_text(source)
    assert private_imports([tmp_path / "fork.py"]) != []


def test_the_library_readme_lists_exactly_the_public_api() -> None:
    readme = LIBRARY_README.read_text()
    for name in PUBLIC:
        module = importlib.import_module(name)
        section = readme.split(f"### `{name}`", 1)[1].split("###", 1)[0]
        listed = set(re.findall(r"^- `(\w+)`", section, re.M))
        assert listed == set(module.__all__), name
        for exported in module.__all__:
            assert hasattr(module, exported), f"{name}.{exported}"


def product_files() -> list[Path]:
    return [*sorted(PACKAGE.rglob("*.py")), *starter_files()]


IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[^\]]*\])?(?P<rest>.*)$")


def test_every_type_ignore_names_its_code_and_why() -> None:
    bare, unexplained = [], []
    for path in product_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = IGNORE.search(line)
            if match is None:
                continue
            where = f"{path.relative_to(ROOT)}:{number}"
            if not match.group("code"):
                bare.append(where)
            elif not re.search(r"#\s*\S", match.group("rest")):
                unexplained.append(where)
    assert bare == [], "a type: ignore must name its error code"
    assert unexplained == [], "a type: ignore must say why, in a comment on its line"


def test_ci_type_checks_before_the_tests() -> None:
    steps = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    mypy = next(i for i, step in enumerate(steps) if step == ".venv/bin/mypy")
    pytest_step = next(i for i, step in enumerate(steps) if "-m pytest" in step)
    assert mypy < pytest_step


def test_mypy_checks_library_and_starter_and_lets_through_only_named_untyped_packages() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert sorted(config["files"]) == sorted(["src", *STARTER_MODULES, *STARTER_PACKAGES])
    assert config["check_untyped_defs"] is True
    assert "ignore_missing_imports" not in config, "only per module, each named"
    for override in config.get("overrides", []):
        if not override.get("ignore_missing_imports"):
            continue
        for module in override["module"]:
            top = module.removesuffix(".*").split(".")[0]
            assert not top.startswith("contextdb_livekit"), "our own code is always checked"
            spec = importlib.util.find_spec(top)
            assert spec is not None and spec.origin is not None, f"{top} is not installed"
            shipped = Path(spec.origin).parent
            assert not (shipped / "py.typed").exists(), f"{top} ships types: drop the override"


# -- circles and layers ---------------------------------------------------------------------

# The folders whose modules may not import each other in a loop.
CIRCLE_ROOTS = {
    "contextdb_livekit": PACKAGE,
    "testkit": ROOT / "testkit",
    "scenarios": ROOT / "scenarios",
}
# The library's packages, lowest first: a package imports only those below it.
LIBRARY_LAYERS = (
    ("identity", "tls"),
    ("memory",),
    ("stores",),
    ("backends",),
    ("delivery",),
    ("kit",),
    ("reading",),
    ("facts",),
    ("worker",),
    ("caller_data",),
    ("api", "hosting"),
)
# Everything else, lowest first: the library, the starter, then what tests and measures it.
OUTER_LAYERS = (
    ("contextdb_livekit",),
    (*STARTER_PACKAGES, *(name.removesuffix(".py") for name in STARTER_MODULES)),
    ("testkit",),
    ("scenarios",),
    ("bench",),
    ("tests",),
)


def module_files(roots: dict[str, Path]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top, folder in roots.items():
        for path in sorted(folder.rglob("*.py")):
            parts = (top, *path.relative_to(folder).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph(roots: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules it imports among `roots` (`from pkg import module` names the
    module), at any depth."""
    modules = module_files(roots)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for module, names in imports_of(path):
            for imported in names or ("",):
                child = f"{module}.{imported}"
                targets.add(child if child in modules else module)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import each other in a loop (strongly connected, more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            loop = []
            while not loop or loop[-1] != node:
                loop.append(stack.pop())
            if len(loop) > 1:
                found.append(sorted(loop))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def upward_imports(
    files: dict[str, Path], layers: tuple[tuple[str, ...], ...], depth: int
) -> set[tuple[str, str]]:
    """(importer, imported) for each import of a name `depth` dots deep from a higher layer."""
    floor = {name: n for n, layer in enumerate(layers) for name in layer}
    found = set()
    for name, path in files.items():
        if name.count(".") < depth - 1:
            continue  # the package's own __init__
        mine = name.split(".")[depth - 1]
        for module, _ in imports_of(path):
            parts = module.split(".")
            if len(parts) < depth or (depth > 1 and parts[0] != name.split(".")[0]):
                continue
            theirs = parts[depth - 1]
            if mine in floor and theirs in floor and floor[theirs] > floor[mine]:
                found.add((mine, theirs))
    return found


def library_modules() -> dict[str, Path]:
    return module_files({"contextdb_livekit": PACKAGE})


def outer_modules() -> dict[str, Path]:
    files = {f"{Path(m).stem}": ROOT / m for m in STARTER_MODULES}
    for top in (*STARTER_PACKAGES, "testkit", "scenarios", "bench", "tests"):
        files |= module_files({top: ROOT / top})
    return files


def test_no_modules_import_each_other_in_a_loop() -> None:
    assert circles(import_graph(CIRCLE_ROOTS)) == []


def test_no_library_package_imports_one_above_it() -> None:
    assert upward_imports(library_modules(), LIBRARY_LAYERS, 2) == set()
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert packages | modules == {name for layer in LIBRARY_LAYERS for name in layer}


def test_the_test_kit_and_the_scenarios_import_nothing_above_them() -> None:
    assert upward_imports(outer_modules(), OUTER_LAYERS, 1) == set()


def test_the_checks_see_a_circle_and_an_upward_import(tmp_path: Path) -> None:
    (tmp_path / "stores").mkdir()
    (tmp_path / "delivery").mkdir()
    (tmp_path / "stores" / "a.py").write_text("def f():\n    from lib.delivery import b\n")
    (tmp_path / "delivery" / "b.py").write_text("from lib.stores.a import f\n")
    assert circles(import_graph({"lib": tmp_path})) == [["lib.delivery.b", "lib.stores.a"]]
    files = module_files({"lib": tmp_path})
    assert upward_imports(files, (("stores",), ("delivery",)), 2) == {("stores", "delivery")}
