"""Keyless playground: scripted calls through the real AgentSession and the local engine."""
