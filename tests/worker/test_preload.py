"""Job processes fork warm: what agent.py imports is already in LiveKit's forkserver."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from contextdb_livekit.worker.preload import preload_modules

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "contextdb_livekit"
LINE_MODULE = "line"  # as agent.py names it
# The forkserver's preload in a fresh interpreter: a module it cannot import is skipped.
FORKSERVER_PRELOAD = f"""for name in {preload_modules(LINE_MODULE)!r}:
    try:
        importlib.import_module(name)
    except ImportError:
        pass"""


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
{FORKSERVER_PRELOAD}
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
    assert "build_server(STARTUP_SETTINGS, LINE_MODULE)" in (ROOT / "agent.py").read_text()
    server = (ROOT / "src/contextdb_livekit/worker/server.py").read_text()
    assert "preload_modules=preload_modules(*line_modules)" in server
    assert "setup_fnc=prewarm" in server
    assert "warm_process()" in (ROOT / "src/contextdb_livekit/worker/session.py").read_text()


def test_the_calls_plugins_share_one_client_and_load_no_ca_bundle(tmp_path):
    # In a fresh interpreter: the TLS context is built at import (the forkserver's); building
    # the plugins afterwards (prewarm) must not load another.
    probe = (
        "import httpcore2, agent\n"
        "from contextdb_livekit.hosting import pipeline_plugins\n"
        "from contextdb_livekit.worker.settings import WorkerSettings\n"
        "built = []\n"
        "real = httpcore2.default_ssl_context\n"
        "httpcore2.default_ssl_context = lambda *a, **k: built.append(1) or real(*a, **k)\n"
        "p = pipeline_plugins(WorkerSettings())\n"
        "print(len({id(getattr(p, k)._client) for k in ('stt', 'llm', 'tts')}), len(built))\n"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PYTHONPATH": str(ROOT),
        "OPENAI_API_KEY": "sk-test",
        "LIVEKIT_URL": "ws://127.0.0.1:7880",
        "LIVEKIT_API_KEY": "devkey",
        "LIVEKIT_API_SECRET": "a-livekit-secret-of-thirty-two-bytes-x",
        "IDENTITY_SIGNING_SECRET": "k8Qw3nZ1pV7rT2yX9mB4cL6hJ0sD5fG8aE3uI7oP1qW",
    }
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["1", "0"]


def test_a_job_forked_from_the_forkserver_inherits_the_engine_fingerprint(tmp_path):
    # The forkserver's preload computes the fingerprint; a process forked from it (as LiveKit's
    # job processes are) finds it cached and reads no source file in its prewarm.
    probe = f"""
import importlib, os, json
{FORKSERVER_PRELOAD}
from contextdb_livekit.backends import engine_client
from contextdb_livekit.worker.preload import warm_process
cached = engine_client.engine_version.cache_info().currsize
read = []
engine_client.project_imports = lambda *a: read.append(a) or set()
pid = os.fork()
if pid == 0:
    warm_process()
    os._exit(3 if read else 0)
_, status = os.waitpid(pid, 0)
print(json.dumps([cached, os.waitstatus_to_exitcode(status)]))
"""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PYTHONPATH": str(ROOT),
        "MEMORY_DATA_DIR": str(tmp_path / "data"),
    }
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    cached, child = json.loads(run.stdout.strip().splitlines()[-1])
    assert cached == 1  # computed in the forkserver's preload
    assert child == 0  # the forked job's prewarm read no source to compute it again


def test_the_forkserver_freezes_what_it_preloaded_so_a_job_collects_none_of_it():
    # A job process's garbage collections must not walk (and so copy) the forkserver's pages.
    script = f"""
import gc, importlib
{FORKSERVER_PRELOAD}
print(gc.get_freeze_count())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert int(done.stdout.split()[-1]) > 100_000  # the preloaded modules' objects


def test_a_job_forked_from_the_forkserver_finds_the_libraries_warm():
    # What the call path would build on first use (LiveKit's hyphenator, phonenumbers'
    # metadata for the log redaction) is built once in the forkserver; a forked job process
    # builds none of it again on its event loop.
    script = f"""
import importlib, json, os
{FORKSERVER_PRELOAD}
from livekit.agents.tokenize import _basic_hyphenator
from phonenumbers import PhoneMetadata
from contextdb_livekit.memory.secrets import phone_spans
built = []
_basic_hyphenator.Hyphenator.__init__ = lambda *a, **k: built.append("hyphenator")
pid = os.fork()
if pid == 0:
    from livekit.agents.tokenize import basic
    basic.hyphenate_word("caller")
    phone_spans("sip_+14415550100 rang from 01632 960 961")
    # A region whose metadata is still to load has its loader here, else None.
    built += [code for code, loader in PhoneMetadata._region_available.items() if loader]
    os._exit(7 if built else 0)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split()[-1] == "0"
