-- The transactional outbox (docs/OUTBOX.md): each channel message a move owes is written in
-- the move's own transaction and marked sent once Discord has it. A crash
-- between the commit and the post leaves the row pending, and the next start sends it.
-- ``nonce`` goes with the post (Discord's enforce_nonce): a row posted just before a crash
-- and sent again after it is not duplicated.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    nonce      TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    sent_at    REAL,
    message_id INTEGER,
    failure    TEXT
);
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL;
