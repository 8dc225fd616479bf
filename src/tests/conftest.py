"""The library's tests (`contextdb_livekit`): nothing here imports the starter (agent.py,
line.py, drain.py, tools/, memory/, calendar_client/, billing_client/, scenarios/) or the
starter's tests (tests/); tests/test_boundaries.py holds that. Their shared fixtures (engine,
Postgres, Cloud stand-in, `backend`) are the plugin `testkit.fixtures`, which the starter's
tests load too.

Run them alone: `.venv/bin/python -m pytest src/tests`.
"""

pytest_plugins = ["testkit.fixtures"]
