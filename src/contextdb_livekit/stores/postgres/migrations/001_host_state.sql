-- The host's own state for a multi-host deployment (DATABASE_URL): everything a worker
-- container used to keep in local SQLite files. pycontextdb's Postgres store keeps its own
-- tables (memories, audit_log, contextdb_meta, ...) in the same database; ours are prefixed.

-- Decision ledger: one row per evaluate_action, one terminal receipt per decision.
CREATE TABLE host_decisions (
    decision_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    query TEXT NOT NULL,
    outcome TEXT NOT NULL,
    memory_ids JSONB NOT NULL,
    pending_ids JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    seq BIGSERIAL,
    -- The host's key for one evaluation: asking again after a lost answer returns the
    -- decision already recorded instead of a second one.
    request_key TEXT
);
CREATE INDEX host_decisions_user ON host_decisions (user_id, seq);
CREATE UNIQUE INDEX host_decisions_request_key ON host_decisions (user_id, request_key)
    WHERE request_key IS NOT NULL;
-- The sweeper looks for old decisions without a receipt.
CREATE INDEX host_decisions_created ON host_decisions (created_at);

CREATE TABLE host_receipts (
    decision_id TEXT PRIMARY KEY REFERENCES host_decisions (decision_id),
    receipt_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    payload_hash TEXT NOT NULL,
    action_name TEXT NOT NULL,
    status TEXT NOT NULL,
    policy_alignment TEXT NOT NULL,
    external_ref TEXT,
    error_code TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Idempotent fact writes: `in_progress` before the first fact, `done` with the ids after.
CREATE TABLE host_writes (
    idempotency_key TEXT PRIMARY KEY,
    payload_hash TEXT NOT NULL,
    user_id TEXT NOT NULL,
    state TEXT NOT NULL,
    result JSONB NOT NULL DEFAULT '[]',
    started_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Outbox: receipts and fact writes not yet delivered, leased to one sender at a time.
-- Times are epoch seconds, as in the SQLite outbox, so both share one lease arithmetic.
CREATE TABLE host_outbox (
    idempotency_key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL,
    payload JSONB NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at DOUBLE PRECISION NOT NULL,
    lease_until DOUBLE PRECISION NOT NULL DEFAULT 0,
    lease_owner TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    last_error TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    config_fingerprint TEXT,
    parked_from TEXT
);
CREATE INDEX host_outbox_due ON host_outbox (state, next_attempt_at);

-- Consent evidence: who said yes to which memories, kept before ContextDB is told.
CREATE TABLE host_attestations (
    attestation_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    actor_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    room_name TEXT NOT NULL,
    memory_ids JSONB NOT NULL,
    turn_id TEXT NOT NULL,
    turn_text TEXT NOT NULL,
    attested_at TEXT NOT NULL,
    question_turn_id TEXT NOT NULL DEFAULT '',
    question_text TEXT NOT NULL DEFAULT ''
);
CREATE INDEX host_attestations_customer ON host_attestations (customer_id, attested_at);

-- SIP caller directory and single-use identity claims.
CREATE TABLE host_customers (
    phone TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL
);
CREATE TABLE host_used_claims (
    jti TEXT PRIMARY KEY,
    expires_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX host_used_claims_expiry ON host_used_claims (expires_at);
