-- Every decision closed (issue 21): the host's key for one evaluation, so asking again after
-- a lost answer returns the decision already recorded instead of a second one.
ALTER TABLE host_decisions ADD COLUMN request_key TEXT;
CREATE UNIQUE INDEX host_decisions_request_key ON host_decisions (user_id, request_key)
    WHERE request_key IS NOT NULL;
-- The sweeper looks for old decisions without a receipt.
CREATE INDEX host_decisions_created ON host_decisions (created_at);
