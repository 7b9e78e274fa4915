-- PostgreSQL dialect of ../005_snapshots_and_keys.sql: the effective log kept by every
-- save, replay snapshots and the bot's keys.
CREATE TABLE effective_moves (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 1),
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    PRIMARY KEY (game_id, position)
);
CREATE INDEX effective_moves_by_seat ON effective_moves (game_id, seat, position);
INSERT INTO effective_moves (game_id, position, seq, seat)
    SELECT a.game_id, ROW_NUMBER() OVER (PARTITION BY a.game_id ORDER BY a.seq), a.seq, a.seat
    FROM actions a WHERE a.rewind_to IS NULL AND NOT EXISTS (
        SELECT 1 FROM undone_actions u WHERE u.game_id = a.game_id AND u.seq = a.seq);

ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT 0 CHECK (moves >= 0);
UPDATE games SET moves = (SELECT COUNT(*) FROM effective_moves e WHERE e.game_id = games.id);

CREATE TABLE snapshots (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    position INTEGER NOT NULL CHECK (position >= 1),
    state    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX snapshots_by_position ON snapshots (game_id, position);

CREATE TABLE bot_secrets (
    name       TEXT  PRIMARY KEY,
    value      BYTEA NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
