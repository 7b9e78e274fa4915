-- One vote model for every table decision (bot/core/votes.py): cancelling a started game,
-- pausing or resuming it, a new deadline policy, taking back moves (undo). A vote is open
-- until every voter said yes (accepted), one said no (refused), its time ran out (expired)
-- or the position it was asked about is gone (void). It replaces cancel_votes, table_votes,
-- undo_requests and undo_votes; their rows are carried over.
CREATE TABLE votes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    topic       TEXT    NOT NULL,  -- cancel | pause | resume | deadline:… | undo
    user_id     INTEGER NOT NULL,  -- who asked
    voters      TEXT    NOT NULL DEFAULT '[]',  -- JSON: whose yes is needed ([]: every human seated)
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'accepted', 'refused', 'expired', 'void')),
    created_at  REAL    NOT NULL,
    expires_at  REAL,              -- NULL: no time limit
    resolved_at REAL,
    version     INTEGER,           -- undo: the game version it was asked at
    seat        INTEGER,           -- undo: the seat whose moves are taken back
    rewind_to   INTEGER            -- undo: the last log entry kept
);
CREATE UNIQUE INDEX votes_one_open ON votes (game_id, topic) WHERE status = 'open';

CREATE TABLE ballots (
    vote_id    INTEGER NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    accept     INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (vote_id, user_id)
);

-- An undo request keeps its id: a vote button already posted still finds it.
INSERT INTO votes (id, game_id, topic, user_id, voters, status, created_at, expires_at,
                   resolved_at, version, seat, rewind_to)
SELECT id, game_id, 'undo', user_id, voters, status, created_at, expires_at, resolved_at,
       version, seat, rewind_to FROM undo_requests ORDER BY id;
INSERT INTO ballots (vote_id, user_id, accept, created_at)
SELECT request_id, user_id, accept, created_at FROM undo_votes;

INSERT INTO votes (game_id, topic, user_id, created_at)
SELECT game_id, 'cancel', MIN(user_id), MIN(created_at) FROM cancel_votes GROUP BY game_id;
INSERT INTO ballots (vote_id, user_id, accept, created_at)
SELECT v.id, c.user_id, 1, c.created_at FROM cancel_votes c
JOIN votes v ON v.game_id = c.game_id AND v.topic = 'cancel' AND v.status = 'open';

INSERT INTO votes (game_id, topic, user_id, created_at)
SELECT game_id, topic, MIN(user_id), MIN(created_at) FROM table_votes GROUP BY game_id, topic;
INSERT INTO ballots (vote_id, user_id, accept, created_at)
SELECT v.id, t.user_id, 1, t.created_at FROM table_votes t
JOIN votes v ON v.game_id = t.game_id AND v.topic = t.topic AND v.status = 'open';

DROP TABLE undo_votes;
DROP TABLE undo_requests;
DROP TABLE cancel_votes;
DROP TABLE table_votes;
