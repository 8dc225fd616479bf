"""The kit and the drain name no domain module: a fork retargets the domain folder alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "contextdb_livekit"
# Every module of the kit and of delivery: none may import the domain.
DOMAIN_FREE = sorted(
    str(path.relative_to(SRC))
    for folder in ("kit", "delivery")
    for path in (SRC / folder).glob("*.py")
)


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("module", DOMAIN_FREE)
def test_names_no_domain_module(module: str) -> None:
    domain = {m for m in imported_modules(SRC / module) if m.startswith("contextdb_livekit.domain")}
    assert domain == set(), domain
