-- AI levels (docs/AI.md): each AI seat's level, and the level at which an AI takes over a
-- seat at this table (a missed deadline, an abandoned seat, an admin's hand-over).
ALTER TABLE seats ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE games ADD COLUMN ai_level TEXT NOT NULL DEFAULT 'normal';
