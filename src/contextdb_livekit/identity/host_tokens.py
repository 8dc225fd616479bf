"""Host side: mint a caller's LiveKit token carrying the signed identity claim.

    python -m contextdb_livekit.identity.host_tokens --room ROOM --customer CUSTOMER_ID \
        [--identity ID]
        [--agent-name NAME]

Reads LIVEKIT_API_KEY, LIVEKIT_API_SECRET and IDENTITY_SIGNING_SECRET from the environment
(then .env.local, then .env) and prints a token that joins ROOM and dispatches the agent.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from datetime import timedelta

from dotenv import load_dotenv
from livekit import api

from contextdb_livekit.identity.claims import IDENTITY_CLAIM_ATTRIBUTE, mint_identity_claim

DEFAULT_AGENT_NAME = "scheduling-agent"  # the worker's AGENT_NAME default
REQUIRED_ENV = ("LIVEKIT_API_KEY", "LIVEKIT_API_SECRET", "IDENTITY_SIGNING_SECRET")
EXIT_USAGE = 2


def mint_participant_token(
    *,
    api_key: str,
    api_secret: str,
    room_name: str,
    participant_identity: str,
    customer_id: str,
    identity_secret: str,
    agent_name: str | None,
    ttl: timedelta = timedelta(hours=1),
    display_name: str | None = None,
    claim_ttl: timedelta | None = None,
) -> str:
    """A LiveKit join token for `room_name` whose attributes carry the signed claim.

    The claim lives as long as the token by default: the worker verifies it when the caller
    joins, and a token that can still join should not carry a claim that has lapsed. The
    room binding, not a short lifetime, is what stops replay into other calls.
    """
    claim = mint_identity_claim(
        customer_id=customer_id,
        room_name=room_name,
        secret=identity_secret,
        ttl=claim_ttl or ttl,
    )
    token = (
        api.AccessToken(api_key, api_secret)
        .with_identity(participant_identity)
        .with_ttl(ttl)
        .with_grants(
            api.VideoGrants(
                room_join=True,
                room=room_name,
                can_publish=True,
                can_subscribe=True,
                can_publish_data=True,
                # The caller must not be able to rewrite the attributes that carry the claim.
                can_update_own_metadata=False,
            )
        )
        .with_attributes({IDENTITY_CLAIM_ATTRIBUTE: claim})
    )
    if display_name:
        token = token.with_name(display_name)
    if agent_name:
        # The worker registers with an agent name, so it only joins rooms that ask for it.
        token = token.with_room_config(
            api.RoomConfiguration(agents=[api.RoomAgentDispatch(agent_name=agent_name)])
        )
    return token.to_jwt()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m contextdb_livekit.identity.host_tokens",
        description="Mint a caller token with a signed identity claim. Reads "
        + ", ".join(REQUIRED_ENV)
        + " from the environment, .env.local or .env.",
    )
    parser.add_argument("--room", required=True, help="room the token may join")
    parser.add_argument("--customer", required=True, help="the customer id the host verified")
    parser.add_argument(
        "--identity", help="participant identity (default: caller-<random>, never the customer id)"
    )
    parser.add_argument(
        "--agent-name",
        help=f"agent to dispatch (default: $AGENT_NAME or {DEFAULT_AGENT_NAME})",
    )
    parser.add_argument("--display-name", help="participant display name (not trusted)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # Real environment wins, then .env.local, then .env — the same order as the worker.
    load_dotenv(".env.local")
    load_dotenv(".env")
    missing = [name for name in REQUIRED_ENV if not os.environ.get(name, "").strip()]
    if missing:
        print("error: missing required setting(s): " + ", ".join(missing), file=sys.stderr)
        return EXIT_USAGE
    try:
        token = mint_participant_token(
            api_key=os.environ["LIVEKIT_API_KEY"],
            api_secret=os.environ["LIVEKIT_API_SECRET"],
            room_name=args.room,
            # Opaque: LiveKit logs participant identities (RoomIO at INFO on disconnect), so
            # an identity that carried the customer id would put it in every log.
            participant_identity=args.identity or f"caller-{secrets.token_hex(8)}",
            customer_id=args.customer,
            identity_secret=os.environ["IDENTITY_SIGNING_SECRET"],
            agent_name=args.agent_name or os.environ.get("AGENT_NAME") or DEFAULT_AGENT_NAME,
            display_name=args.display_name,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(token)
    return 0


if __name__ == "__main__":
    sys.exit(main())
