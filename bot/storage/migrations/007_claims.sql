-- Claims on periodic work, so that two processes never do the same job twice
-- (docs/STORAGE.md): a row is held by ``claim_owner`` (a process) until ``claimed_until``;
-- a process that dies leaves its claims to expire.
ALTER TABLE reminders ADD COLUMN claim_owner TEXT;  -- reminders, warnings, deadlines
ALTER TABLE reminders ADD COLUMN claimed_until REAL;
ALTER TABLE outbox ADD COLUMN claim_owner TEXT;  -- delivery of the message
ALTER TABLE outbox ADD COLUMN claimed_until REAL;
ALTER TABLE games ADD COLUMN ai_claim_owner TEXT;  -- the AI move awaited at ai_claim_version
ALTER TABLE games ADD COLUMN ai_claim_version INTEGER;
ALTER TABLE games ADD COLUMN ai_claimed_until REAL;
