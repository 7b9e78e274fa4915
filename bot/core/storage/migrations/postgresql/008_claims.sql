-- PostgreSQL dialect of ../008_claims.sql: claims on periodic work (docs/STORAGE.md).
ALTER TABLE reminders ADD COLUMN claim_owner TEXT;
ALTER TABLE reminders ADD COLUMN remind_claimed_until DOUBLE PRECISION;
ALTER TABLE reminders ADD COLUMN warn_claimed_until DOUBLE PRECISION;
ALTER TABLE reminders ADD COLUMN deadline_claimed_until DOUBLE PRECISION;
ALTER TABLE outbox ADD COLUMN claim_owner TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN ai_claim_owner TEXT;
ALTER TABLE games ADD COLUMN ai_claim_version INTEGER;
ALTER TABLE games ADD COLUMN ai_claimed_until DOUBLE PRECISION;
