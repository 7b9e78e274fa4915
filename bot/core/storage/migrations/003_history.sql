-- Undo, imported games and ratings (docs/HISTORY.md).

-- Whether a log entry revealed hidden information or drew from the generator. Entries
-- written before this migration are unknown, so they count as irreversible (the safe side).
ALTER TABLE actions ADD COLUMN irreversible INTEGER NOT NULL DEFAULT 1;

-- An undo is itself a log entry (the version keeps growing, so every older panel is out of
-- date): its rewind_to is the last entry it keeps (0 = the initial state).
ALTER TABLE actions ADD COLUMN rewind_to INTEGER CHECK (rewind_to IS NULL OR rewind_to >= 0);

-- Entries taken back by an undo. The log itself is never changed: the effective log is
-- every move (rewind_to IS NULL) not listed here, and replaying it gives the snapshot.
CREATE TABLE undone_actions (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    undo_seq INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TRIGGER undone_actions_append_only_update BEFORE UPDATE ON undone_actions
BEGIN
    SELECT RAISE(ABORT, 'undone_actions is append-only');
END;
CREATE TRIGGER undone_actions_append_only_delete BEFORE DELETE ON undone_actions
BEGIN
    SELECT RAISE(ABORT, 'undone_actions is append-only');
END;

-- An undo that needs the other players' consent: open until every voter accepted (then
-- applied), one refused, it expired, or the game moved on (void).
CREATE TABLE undo_requests (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    version    INTEGER NOT NULL,  -- the game version it was asked at
    rewind_to  INTEGER NOT NULL,
    voters     TEXT    NOT NULL,  -- JSON list of the user ids whose consent is needed
    status     TEXT    NOT NULL DEFAULT 'open'
               CHECK (status IN ('open', 'accepted', 'refused', 'expired', 'void')),
    created_at REAL    NOT NULL,
    expires_at REAL    NOT NULL,
    resolved_at REAL
);
CREATE UNIQUE INDEX undo_requests_one_open ON undo_requests (game_id) WHERE status = 'open';

CREATE TABLE undo_votes (
    request_id INTEGER NOT NULL REFERENCES undo_requests (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    accept     INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (request_id, user_id)
);

-- A game re-created by /game import: kept for replays, never rated.
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_guild ON games (guild_id, status);

-- Ratings per game, per server (scope = guild id) and global (scope = 0).
CREATE TABLE ratings (
    scope      INTEGER NOT NULL,
    game_key   TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (scope, game_key, user_id)
);
CREATE INDEX ratings_by_user ON ratings (user_id);

-- A finished game is rated once: this row and the rating changes share one transaction.
CREATE TABLE rated_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    players  INTEGER NOT NULL,  -- rated seats (0: fewer than two rated humans)
    rated_at REAL    NOT NULL
);
