-- Claims on periodic work, so that two processes never do the same job twice
-- (docs/STORAGE.md): a job is held by the process that claimed it until ``*_claimed_until``;
-- doing the job releases it. A process that dies leaves its claims to expire, or to be
-- released when it starts again under the same owner name (LUDO_INSTANCE).
ALTER TABLE reminders ADD COLUMN claim_owner TEXT;  -- the process that last claimed a job
ALTER TABLE reminders ADD COLUMN remind_claimed_until REAL;  -- the reminder ping
ALTER TABLE reminders ADD COLUMN warn_claimed_until REAL;  -- the deadline warning
ALTER TABLE reminders ADD COLUMN deadline_claimed_until REAL;  -- the missed deadline
ALTER TABLE outbox ADD COLUMN claim_owner TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until REAL;  -- delivery of the message
ALTER TABLE games ADD COLUMN ai_claim_owner TEXT;
ALTER TABLE games ADD COLUMN ai_claim_version INTEGER;  -- the AI move awaited at that version
ALTER TABLE games ADD COLUMN ai_claimed_until REAL;
