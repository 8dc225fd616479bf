from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from livekit import api

from contextdb_livekit.identity import IDENTITY_CLAIM_ATTRIBUTE, verify_identity_claim
from contextdb_livekit.identity.host_tokens import mint_participant_token
from testkit.identity_tokens import ROOM, SECRET, decoded_payload

API_KEY = "devkey"
API_SECRET = "devsecret-devsecret-devsecret-00"
ROOT = Path(__file__).resolve().parents[3]


def mint(**overrides) -> str:
    arguments = {
        "api_key": API_KEY,
        "api_secret": API_SECRET,
        "room_name": ROOM,
        "participant_identity": "caller-1",
        "customer_id": "cust-1",
        "identity_secret": SECRET,
        "agent_name": "scheduling-agent",
    }
    return mint_participant_token(**{**arguments, **overrides})


def test_host_token_carries_a_verifiable_claim_locked_attributes_and_dispatch():
    grants = api.TokenVerifier(API_KEY, API_SECRET).verify(mint(display_name="Pat"))
    assert (grants.identity, grants.name) == ("caller-1", "Pat")
    assert grants.video.room_join is True and grants.video.room == ROOM
    assert grants.video.can_update_own_metadata is False
    assert grants.video.can_publish and grants.video.can_subscribe
    assert grants.video.can_publish_data
    assert [agent.agent_name for agent in grants.room_config.agents] == ["scheduling-agent"]
    claim = verify_identity_claim(
        grants.attributes[IDENTITY_CLAIM_ATTRIBUTE], room_name=ROOM, secret=SECRET
    )
    assert claim.customer_id == "cust-1"


def test_token_is_signed_with_the_api_secret():
    with pytest.raises(Exception, match=r"[Ss]ignature"):
        api.TokenVerifier(API_KEY, "another-secret-another-secret-00").verify(mint())


def test_without_agent_name_there_is_no_dispatch():
    grants = api.TokenVerifier(API_KEY, API_SECRET).verify(mint(agent_name=None))
    assert grants.room_config is None


def test_claim_lives_as_long_as_the_token_by_default():
    token = mint(ttl=timedelta(hours=2))
    claim = decoded_payload(decoded_payload(token)["attributes"][IDENTITY_CLAIM_ATTRIBUTE])
    assert abs(claim["exp"] - decoded_payload(token)["exp"]) <= 2
    short = mint(ttl=timedelta(hours=2), claim_ttl=timedelta(minutes=5))
    short_claim = decoded_payload(decoded_payload(short)["attributes"][IDENTITY_CLAIM_ATTRIBUTE])
    assert short_claim["exp"] - short_claim["iat"] == 300


def test_host_refuses_a_weak_identity_secret():
    with pytest.raises(ValueError, match="32 bytes"):
        mint(identity_secret="short")


def run_cli(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # Run from an empty folder so a developer's .env cannot satisfy the settings.
    # This checkout's package first (not whichever one the venv's editable install names).
    env = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "contextdb_livekit.identity.host_tokens", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def clean_env() -> dict[str, str]:
    prefixes = ("LIVEKIT_", "IDENTITY_", "AGENT_NAME", "PYTHONPATH")
    return {key: value for key, value in os.environ.items() if not key.startswith(prefixes)}


def test_cli_help(tmp_path):
    result = run_cli("--help", env=clean_env(), cwd=tmp_path)
    assert result.returncode == 0
    assert "--room" in result.stdout and "--customer" in result.stdout
    assert result.stderr == ""


def test_cli_names_every_missing_setting_without_a_traceback(tmp_path):
    env = {**clean_env(), "LIVEKIT_API_KEY": API_KEY}
    result = run_cli("--room", "r", "--customer", "c", env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "LIVEKIT_API_SECRET" in result.stderr and "IDENTITY_SIGNING_SECRET" in result.stderr
    assert "LIVEKIT_API_KEY" not in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def settings_env() -> dict[str, str]:
    return {
        **clean_env(),
        "LIVEKIT_API_KEY": API_KEY,
        "LIVEKIT_API_SECRET": API_SECRET,
        "IDENTITY_SIGNING_SECRET": SECRET,
    }


def test_cli_prints_a_token_for_the_room_and_customer(tmp_path):
    result = run_cli("--room", ROOM, "--customer", "cust-5", env=settings_env(), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    grants = api.TokenVerifier(API_KEY, API_SECRET).verify(result.stdout.strip())
    # Opaque: the customer id never appears in the identity LiveKit logs.
    assert grants.identity.startswith("caller-") and "cust-5" not in grants.identity
    assert [agent.agent_name for agent in grants.room_config.agents] == ["scheduling-agent"]
    claim = grants.attributes[IDENTITY_CLAIM_ATTRIBUTE]
    assert verify_identity_claim(claim, room_name=ROOM, secret=SECRET).customer_id == "cust-5"


def test_cli_reads_dotenv_files_with_the_environment_winning(tmp_path):
    (tmp_path / ".env").write_text(
        f"LIVEKIT_API_KEY={API_KEY}\nLIVEKIT_API_SECRET=wrong-secret-wrong-secret-wrong\n"
        "AGENT_NAME=from-dotenv\n"
    )
    (tmp_path / ".env.local").write_text(f"LIVEKIT_API_SECRET={API_SECRET}\n")
    env = {**clean_env(), "IDENTITY_SIGNING_SECRET": SECRET}
    result = run_cli("--room", ROOM, "--customer", "cust-5", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    grants = api.TokenVerifier(API_KEY, API_SECRET).verify(result.stdout.strip())
    assert [agent.agent_name for agent in grants.room_config.agents] == ["from-dotenv"]


def test_cli_reports_a_bad_customer_id_without_a_traceback(tmp_path):
    result = run_cli("--room", ROOM, "--customer", "not valid", env=settings_env(), cwd=tmp_path)
    assert result.returncode == 2
    assert "customer id" in result.stderr and "Traceback" not in result.stderr
