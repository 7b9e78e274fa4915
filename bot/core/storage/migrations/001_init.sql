-- Games, seats, the append-only action log, settings, reminders and cancel votes.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    game_key         TEXT    NOT NULL,
    status           TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    creator_id       INTEGER NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    seed             INTEGER NOT NULL,
    max_seats        INTEGER NOT NULL CHECK (max_seats > 0),
    state            TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    lobby_message_id INTEGER,
    reminder_hours   REAL    NOT NULL DEFAULT 24,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);

-- One open game per channel (a thread is a channel); finished games are kept.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER,  -- NULL for an AI seat
    name    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Entry n turns version n-1 into version n; same seed + same log = same game.
CREATE TABLE actions (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL CHECK (seq >= 1),
    seat           INTEGER NOT NULL,
    action         TEXT    NOT NULL,
    public_events  TEXT    NOT NULL DEFAULT '[]',
    private_events TEXT    NOT NULL DEFAULT '[]',
    turn_end       INTEGER NOT NULL DEFAULT 0,
    created_at     REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX actions_turn_ends ON actions (game_id, seq) WHERE turn_end = 1;

CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    locale         TEXT,
    reminder_hours REAL,
    updated_at     REAL NOT NULL
);

CREATE TABLE user_settings (
    user_id        INTEGER PRIMARY KEY,
    locale         TEXT,
    dm_opt_in      INTEGER NOT NULL DEFAULT 0,
    reminder_hours REAL,
    updated_at     REAL NOT NULL
);

-- One row per awaited human seat, for as long as it stays awaited.
CREATE TABLE reminders (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    turn_version     INTEGER NOT NULL,
    since            REAL    NOT NULL,
    next_at          REAL,
    muted_at_version INTEGER,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX reminders_due ON reminders (next_at) WHERE next_at IS NOT NULL;

CREATE TABLE cancel_votes (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
