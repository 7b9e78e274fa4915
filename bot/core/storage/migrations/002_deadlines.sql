-- Move deadlines and absent players (docs/ASYNC.md).

-- A game's deadline policy; no row (or hours = 0) means no deadline.
CREATE TABLE deadline_policies (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    hours         REAL    NOT NULL DEFAULT 0 CHECK (hours >= 0),
    on_timeout    TEXT    NOT NULL DEFAULT 'ai' CHECK (on_timeout IN ('ai', 'skip')),
    abandon_after INTEGER NOT NULL DEFAULT 3 CHECK (abandon_after >= 0),  -- 0 = never
    warn_hours    REAL    CHECK (warn_hours IS NULL OR warn_hours >= 0),  -- NULL = default
    paused_at     REAL,  -- the table voted a pause: every clock of the game is stopped
    updated_at    REAL    NOT NULL
);

-- The clock of an awaited seat lives on its reminder row (same lifetime: the seat's turn).
-- Running: deadline_at is set. Stopped (pause, vacation): deadline_left holds what remains.
ALTER TABLE reminders ADD COLUMN deadline_at REAL;
ALTER TABLE reminders ADD COLUMN deadline_left REAL;
ALTER TABLE reminders ADD COLUMN warn_at REAL;  -- NULL once the warning went out
ALTER TABLE reminders ADD COLUMN before_sent INTEGER NOT NULL DEFAULT 0;  -- notify-before done
CREATE INDEX reminders_deadline ON reminders (deadline_at) WHERE deadline_at IS NOT NULL;
CREATE INDEX reminders_warn ON reminders (warn_at) WHERE warn_at IS NOT NULL;
CREATE INDEX reminders_before ON reminders (game_id) WHERE before_sent = 0;

-- Consecutive missed deadlines of a seat's player; abandoned_at once declared abandoned
-- (the seat is then an AI seat that anyone in the channel may take over).
CREATE TABLE seat_absence (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    misses       INTEGER NOT NULL DEFAULT 0,
    abandoned_at REAL,
    PRIMARY KEY (game_id, seat)
);

-- What happened, for the reliability profile; a timeout is recorded once per seat turn.
CREATE TABLE absence_events (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('timeout', 'abandon', 'takeover')),
    turn_version INTEGER NOT NULL,
    created_at   REAL    NOT NULL,
    UNIQUE (game_id, seat, kind, turn_version)
);
CREATE INDEX absence_events_by_user ON absence_events (user_id, kind);

-- A player's vacation stops their clocks in every game from start_at to end_at.
CREATE TABLE vacations (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id  INTEGER NOT NULL,
    start_at REAL    NOT NULL,
    end_at   REAL    NOT NULL CHECK (end_at >= start_at),
    resumed  INTEGER NOT NULL DEFAULT 0  -- clocks given back after it ended
);
CREATE INDEX vacations_by_user ON vacations (user_id, end_at);
CREATE INDEX vacations_pending ON vacations (end_at) WHERE resumed = 0;

-- Unanimous table votes (pause, resume, a new deadline policy); topic names the proposal.
CREATE TABLE table_votes (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    topic      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, topic, user_id)
);

-- Messages held back by the recipient's quiet hours; dropped if outdated when due.
CREATE TABLE notices (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,  -- the awaited seat the notice is about
    turn_version INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,  -- the recipient
    kind         TEXT    NOT NULL,
    due_at       REAL    NOT NULL
);
CREATE INDEX notices_due ON notices (due_at);

ALTER TABLE user_settings ADD COLUMN timezone TEXT;
ALTER TABLE user_settings ADD COLUMN quiet_start INTEGER;  -- minutes after local midnight
ALTER TABLE user_settings ADD COLUMN quiet_end INTEGER;
ALTER TABLE user_settings ADD COLUMN notify_before INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guild_settings ADD COLUMN vacation_days INTEGER;
