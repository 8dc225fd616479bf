"""Test helper: every row of every table of a Postgres database, as text, searched."""

from __future__ import annotations

from contextdb_livekit.stores.postgres.connection import SharedDatabase


async def postgres_hits(database: SharedDatabase, needle: str) -> list[str]:
    """`table: row` for every row of every user table whose text holds `needle`
    (case-insensitive), whatever the column types (the row cast to text)."""
    hits: list[str] = []
    async with database.connection() as conn:
        tables = await conn.fetch(
            "SELECT schemaname, tablename FROM pg_tables"
            " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        )
        for schema, table in tables:
            rows = await conn.fetch(
                f'SELECT t::text AS row FROM "{schema}"."{table}" t'
                " WHERE position(lower($1) IN lower(t::text)) > 0",
                needle,
            )
            hits.extend(f"{schema}.{table}: {r['row'][:200]}" for r in rows)
    return hits
