"""Phone callers as LiveKit's SIP service presents them, for tests and benches.

LiveKit's SIP service is not available here, so a phone caller is minted the way it mints
one: a participant of kind SIP with `sip.phoneNumber` and `sip.callStatus` attributes, which
it cannot change itself; the callee picking up is the service's server-side attribute update.
"""

from __future__ import annotations

from livekit import api

from testkit.harness import API_KEY, API_SECRET


def sip_token(room_name: str, identity: str, phone: str, agent_name: str, status: str) -> str:
    """A SIP participant's token for `room_name`, dispatching `agent_name`; `status` is
    ringing, dialing or active."""
    grants = api.VideoGrants(room_join=True, room=room_name, can_update_own_metadata=False)
    return (
        api.AccessToken(API_KEY, API_SECRET)
        .with_identity(identity)
        .with_kind("sip")
        .with_attributes({"sip.phoneNumber": phone, "sip.callStatus": status})
        .with_grants(grants)
        .with_room_config(
            api.RoomConfiguration(agents=[api.RoomAgentDispatch(agent_name=agent_name)])
        )
        .to_jwt()
    )


async def answer(http_url: str, room_name: str, identity: str) -> None:
    """What the SIP service does when the callee picks up: ringing -> active."""
    lkapi = api.LiveKitAPI(http_url, API_KEY, API_SECRET)
    try:
        await lkapi.room.update_participant(
            api.UpdateParticipantRequest(
                room=room_name, identity=identity, attributes={"sip.callStatus": "active"}
            )
        )
    finally:
        await lkapi.aclose()
