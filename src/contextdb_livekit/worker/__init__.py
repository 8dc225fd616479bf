"""Call wiring for agent.py: settings, the memory-aware Agent, per-call setup/shutdown, and
the `LineProfile` seam through which a line's domain reaches all of it."""
