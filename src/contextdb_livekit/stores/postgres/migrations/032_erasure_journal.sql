-- Issue 32: callers erased in the last day (a hash of the customer id, never the id), so a
-- call that was running when its caller was erased keeps nothing. Numbered after the issue
-- so it cannot collide with another branch's next migration.
CREATE TABLE host_erasures (
    subject TEXT PRIMARY KEY,
    erased_at DOUBLE PRECISION NOT NULL
);
