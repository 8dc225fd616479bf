"""Job processes fork warm: what agent.py imports is already in LiveKit's forkserver."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from worker.preload import PRELOAD_MODULES

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("memory", "worker", "tools", "identity", "calendar_client")


def agent_imports() -> list[str]:
    tree = ast.parse((ROOT / "agent.py").read_text())
    return [
        node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PROJECT)
    ]


def test_a_job_process_imports_no_project_module_the_forkserver_did_not():
    # A fresh interpreter: the forkserver's preload, then what agent.py imports in the job.
    script = f"""
import importlib, json, sys
for name in {PRELOAD_MODULES!r}:
    try:  # as the forkserver does: a module it cannot import is skipped
        importlib.import_module(name)
    except ImportError:
        pass
before = set(sys.modules)
for name in {agent_imports()!r}:
    importlib.import_module(name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    late = [m for m in json.loads(done.stdout) if m.startswith(PROJECT)]
    assert late == [], f"imported at job start, not preloaded: {late}"


def test_the_worker_hands_the_preload_list_to_livekit():
    source = (ROOT / "agent.py").read_text()
    assert "preload_modules=PRELOAD_MODULES" in source
    assert "warm_process()" in source
