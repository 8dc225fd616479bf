"""The line between the starter and the library, and the type-checking policy that holds it.

- The library (`src/contextdb_livekit`) imports nothing of the starter: not its line, its
  tools, its fact kinds, its booking client, nor the test kit.
- The starter (agent.py, line.py, drain.py, tools/, memory/, calendar_client/) imports the
  library only through its two public modules, `contextdb_livekit.api` and
  `contextdb_livekit.hosting`, and only names in their `__all__`, which the library's README
  lists: a fork that upgrades the library relies on exactly that.
- CI type-checks both (mypy, before the tests); a `type: ignore` names its error code and says
  why, and the only modules let through untyped are third-party packages that ship no type
  information, each named.
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
