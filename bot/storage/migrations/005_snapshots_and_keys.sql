-- Costs that do not grow with the game, and signed exports (docs/PERFORMANCE.md,
-- docs/HISTORY.md).

-- The number of effective moves (the replay position of the current state), kept by every
-- save so that a replay frame or an undo never counts the log.
ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT 0 CHECK (moves >= 0);
UPDATE games SET moves = (
    SELECT COUNT(*) FROM actions a WHERE a.game_id = games.id AND a.rewind_to IS NULL
    AND NOT EXISTS (SELECT 1 FROM undone_actions u WHERE u.game_id = a.game_id
                    AND u.seq = a.seq));

-- The state after log entry seq, the position-th effective move, taken every few moves: a
-- past position is rebuilt from the nearest snapshot before it, never from the setup. A
-- snapshot is valid while its entry is (an undo taking it back takes back all after it).
CREATE TABLE snapshots (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    position INTEGER NOT NULL CHECK (position >= 1),
    state    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX snapshots_by_position ON snapshots (game_id, position);

-- A seat's last move without reading the log (panels and undo).
CREATE INDEX actions_by_seat ON actions (game_id, seat, seq);

-- Keys the bot keeps, made once (the signing key of exports).
CREATE TABLE bot_secrets (
    name       TEXT PRIMARY KEY,
    value      BLOB NOT NULL,
    created_at REAL NOT NULL
);
