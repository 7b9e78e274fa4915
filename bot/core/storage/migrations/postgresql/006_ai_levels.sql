-- PostgreSQL dialect of ../006_ai_levels.sql: AI levels (docs/AI.md).
ALTER TABLE seats ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE games ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
