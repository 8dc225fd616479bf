"""Host side: mint a caller's LiveKit token carrying the signed identity claim.

    python -m identity.host_tokens --room ROOM --customer CUSTOMER_ID [--identity ID]

Reads LIVEKIT_API_KEY, LIVEKIT_API_SECRET and IDENTITY_SIGNING_SECRET from the environment
(or .env / .env.local) and prints a token that joins ROOM and dispatches the agent.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import timedelta

from dotenv import load_dotenv
from livekit import api

from identity.claims import IDENTITY_CLAIM_ATTRIBUTE, mint_identity_claim


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
    claim_ttl: timedelta = timedelta(minutes=10),
    display_name: str | None = None,
) -> str:
    claim = mint_identity_claim(
        customer_id=customer_id, room_name=room_name, secret=identity_secret, ttl=claim_ttl
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
        token = token.with_room_config(
            api.RoomConfiguration(agents=[api.RoomAgentDispatch(agent_name=agent_name)])
        )
    return token.to_jwt()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Mint a caller token with a signed identity claim."
    )
    parser.add_argument("--room", required=True)
    parser.add_argument("--customer", required=True, help="the customer id the host verified")
    parser.add_argument("--identity", help="participant identity (default: caller-<customer>)")
    parser.add_argument("--agent-name", default=os.environ.get("AGENT_NAME", "scheduling-agent"))
    args = parser.parse_args(argv)
    load_dotenv(".env")
    load_dotenv(".env.local", override=True)
    required = ["LIVEKIT_API_KEY", "LIVEKIT_API_SECRET", "IDENTITY_SIGNING_SECRET"]
    missing = [name for name in required if not os.environ.get(name)]
    if missing:
        print("Missing required settings: " + ", ".join(missing), file=sys.stderr)
        return 2
    try:
        token = mint_participant_token(
            api_key=os.environ["LIVEKIT_API_KEY"],
            api_secret=os.environ["LIVEKIT_API_SECRET"],
            room_name=args.room,
            participant_identity=args.identity or f"caller-{args.customer}",
            customer_id=args.customer,
            identity_secret=os.environ["IDENTITY_SIGNING_SECRET"],
            agent_name=args.agent_name or None,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(token)
    return 0


if __name__ == "__main__":
    sys.exit(main())
