"""Customer memory for the worker: one surface over ContextDB Cloud and the local engine."""
