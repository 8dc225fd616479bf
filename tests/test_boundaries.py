"""Package boundaries a fork relies on, and the type-checking policy that holds them.

- memory/ and worker/ are generic: they import nothing from domain/ (the line's domain
  reaches them only through `worker.profile.LineProfile`, which agent.py passes down).
- CI type-checks src/ and agent.py (mypy, before the tests); a `type: ignore` names its
  error code and says why, and the only modules let through untyped are third-party
  packages that ship no type information, each named.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "contextdb_livekit"
GENERIC = ("memory", "worker")


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


def domain_imports(folder: Path) -> dict[str, list[str]]:
    crossing: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        hits = [m for m in imported_modules(path) if m.startswith("contextdb_livekit.domain")]
        if hits:
            crossing[str(path.relative_to(folder))] = hits
    return crossing


@pytest.mark.parametrize("package", GENERIC)
def test_generic_packages_import_nothing_from_the_domain(package: str) -> None:
    assert domain_imports(PACKAGE / package) == {}


def test_the_import_check_sees_function_level_imports(tmp_path: Path) -> None:
    (tmp_path / "late.py").write_text("def f():\n    from memory.facts import fact_kind\n")
    assert list(domain_imports(tmp_path).values()) == [["memory.facts"]]


def product_files() -> list[Path]:
    return [*sorted(PACKAGE.rglob("*.py")), ROOT / "agent.py"]


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


def test_mypy_checks_src_and_agent_and_lets_through_only_named_untyped_packages() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert sorted(config["files"]) == ["agent.py", "src"]
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
