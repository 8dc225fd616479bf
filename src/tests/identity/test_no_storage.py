"""Identity is logic only: the host's stores are passed in, never imported."""

from __future__ import annotations

import ast
from pathlib import Path

import contextdb_livekit.identity as identity


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_no_identity_module_imports_a_store_or_a_database_driver() -> None:
    files = sorted(Path(identity.__file__).parent.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for module in imported_modules(path):
            assert not module.startswith(("contextdb_livekit.stores", "sqlite3", "asyncpg")), (
                f"{path.name} imports {module}"
            )
