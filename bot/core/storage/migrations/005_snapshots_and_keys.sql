-- Costs that do not grow with the game, and signed exports (docs/PERFORMANCE.md,
-- docs/HISTORY.md).

-- The effective log in order, kept by every save (a row per effective move; an undo deletes
-- the rows of the moves it takes back): a seat's last move, the moves after a position and
-- the count of effective moves are index lookups, never a scan of the log. The log itself
-- (actions, undone_actions) stays append-only and remains the source of truth.
CREATE TABLE effective_moves (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
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

-- How many effective moves the game has: the replay position of its current state.
ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT 0 CHECK (moves >= 0);
UPDATE games SET moves = (SELECT COUNT(*) FROM effective_moves e WHERE e.game_id = games.id);

-- The state after log entry seq, the position-th effective move, taken every few moves: a
-- past position is rebuilt from the nearest snapshot before it, never from the setup. A
-- snapshot is valid while its entry is effective (an undo taking it back takes back all after
-- it).
CREATE TABLE snapshots (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    position INTEGER NOT NULL CHECK (position >= 1),
    state    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX snapshots_by_position ON snapshots (game_id, position);

-- Keys the bot keeps, made once (the signing key of exports).
CREATE TABLE bot_secrets (
    name       TEXT PRIMARY KEY,
    value      BLOB NOT NULL,
    created_at REAL NOT NULL
);
