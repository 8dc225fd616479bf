"""Call wiring for agent.py: settings, the scheduling Agent, and per-call setup/shutdown."""
