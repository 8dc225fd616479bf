"""Memory backends on the host's stores: ContextDB Cloud, the embedded engine (its process,
client and file, built on SQLite or the shared Postgres), the backend the settings pick, and
one caller's partition in each."""
