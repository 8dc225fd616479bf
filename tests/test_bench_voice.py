"""bench.voice without a server: its scenarios, its load generator, its table."""

from __future__ import annotations

import time

import jwt
import numpy as np
from voicebench.adapters.base import AgentAudio, SessionInfo
from voicebench.clock import RealClock

from bench.voice import (
    SCENARIOS,
    ProjectLiveKitAdapter,
    Sample,
    Target,
    greeted_with_snapshot,
    load_scenarios,
    phase_rows,
    snapshot_outcomes,
    start_load,
    table,
)
from testkit.harness import API_SECRET, Worker
from testkit.speech import CALLER_LINES


def test_every_scenario_parses_and_speaks_only_lines_the_scripted_stt_knows(tmp_path):
    scenarios = load_scenarios(list(SCENARIOS), tmp_path)
    assert set(scenarios) == set(SCENARIOS)
    for scenario in scenarios.values():
        for turn in scenario.turns:
            assert turn.text is None or turn.text in CALLER_LINES
    expects = {t.expect for s in scenarios.values() for t in s.turns}
    assert expects == {"respond", "stop", "ignore"}  # barge-in and cough are both there


def test_the_load_generator_stops_by_itself():
    procs = start_load(2, 0.5)
    deadline = time.monotonic() + 10
    while any(p.is_alive() for p in procs) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(p.is_alive() for p in procs)


def test_the_adapter_times_the_first_voiced_agent_audio_only():
    adapter = ProjectLiveKitAdapter(token="t", url="ws://x", api_key="k", api_secret="s")
    adapter._session = SessionInfo(16000, 20, RealClock(), "t")
    adapter.emit(AgentAudio(np.zeros(320, dtype=np.float32), 0.0))
    assert adapter.first_voice_at is None  # silence is not the greeting
    adapter.emit(AgentAudio(np.full(320, 0.25, dtype=np.float32), 0.1))
    assert adapter.first_voice_at is not None


def test_the_table_has_a_column_per_target_and_the_issue_rows():
    samples = [
        Sample("on", "greeting", joined_ms=500, greeting_ms=700, joined_from_request_ms=800,
               greeting_from_request_ms=1000, response_ms=[900], call_s=10, cpu_s=3.5),
        Sample("bare", "greeting", joined_ms=450, greeting_ms=650, joined_from_request_ms=700,
               greeting_from_request_ms=900, response_ms=[880], stop_ms=[700], call_s=10,
               cpu_s=3.4),
    ]  # fmt: skip
    text = table(samples, ["on", "bare"], {"on": {}, "bare": {}})
    assert "| agent joined (caller in room) | 500 / 500 | 450 / 450 |" in text
    assert "| agent joined (join request) | 800 / 800 | 700 / 700 |" in text
    assert "| greeting (caller in room) | 700 / 700 | 650 / 650 |" in text
    assert "| greeting (join request) | 1000 / 1000 | 900 / 900 |" in text
    assert "| barge-in stop | — | 700 / 700 |" in text
    assert "| CPU-s per call-second (group) | 0.35 | 0.34 |" in text


def test_the_snapshot_count_reads_the_workers_own_lines():
    log_text = "\n".join(
        [
            "INFO snapshot for caller c-1: 4 memories in 12.0 ms",
            "INFO snapshot for caller c-2: 0 memories in 300.4 ms (unavailable: timed out)",
            "INFO something else entirely",
            "INFO snapshot for caller c-3: 2 memories in 40.1 ms",
        ]
    )
    assert snapshot_outcomes(log_text) == (2, 3)


def test_a_phone_caller_is_a_ringing_sip_participant_the_directory_knows():
    worker = Worker({"AGENT_NAME": "agent-x"}, None, None, None)  # type: ignore[arg-type]
    target = Target("on", worker, phones=[("+442070000001", "cust-1")])
    token, identity = target.phone_token("room-1")
    claims = jwt.decode(token, API_SECRET, algorithms=["HS256"])
    assert identity == "sip_+442070000001" and claims["sub"] == identity
    assert claims["kind"] == "sip"
    assert claims["attributes"] == {
        "sip.phoneNumber": "+442070000001",
        "sip.callStatus": "ringing",
    }
    assert target.phones == []  # each seeded number rings once


def test_job_start_up_and_loop_blocks_are_read_from_one_phase_of_the_log():
    phase_log = "\n".join(
        [
            'INFO livekit.agents - process initialized {"pid": 1, "elapsed_time": 0.3}',
            'INFO livekit.agents - process initialized {"pid": 2, "elapsed_time": 0.1}',
            'INFO livekit.agents - process initialized {"pid": 3, "elapsed_time": 0.2}',
            "WARNING livekit.agents - event loop blocked for 120 ms",
        ]
    )
    rows = phase_rows(phase_log)
    assert rows["job start-up s p50 / max (interleaved rounds)"] == "0.20 / 0.30"
    assert rows["job event-loop blocks >= 100 ms (interleaved rounds)"] == "1"
    assert phase_rows("")["job start-up s p50 / max (interleaved rounds)"] == "—"


def test_a_call_counts_as_greeted_with_its_history_only_when_its_snapshot_landed():
    landed = "INFO snapshot for caller c-1: 4 memories in 12.0 ms"
    late = "INFO snapshot for caller c-1: late (unavailable: not in 300 ms after the caller"
    assert greeted_with_snapshot(landed) is True
    assert greeted_with_snapshot(late) is False
    assert greeted_with_snapshot("INFO the caller left before the job started") is False
