-- A server's game life: ratings, statistics, leaderboards and history (issue "A server's game
-- life"). What a finished game's results lacked, the ratings per scope, and the indexes of the
-- three questions a server asks: a user's results here, the leaderboard, the games newest first.

-- Why a computer took a seat over and how many turns the human had finished by then, so the
-- results can say who played how much of the seat (a stand-in's seat is not rated).
ALTER TABLE seats ADD COLUMN handover TEXT
    CHECK (handover IS NULL OR former_user_id IS NOT NULL);
ALTER TABLE seats ADD COLUMN human_turns INTEGER
    CHECK (human_turns IS NULL OR human_turns >= 0);

-- Per seat of a finished game. NULL in rows finished before this version: the statistics show
-- the figure as unknown rather than as 0, and those games were never rated.
ALTER TABLE results ADD COLUMN guild_id INTEGER;          -- copied from the game, as map is
ALTER TABLE results ADD COLUMN name TEXT;                 -- the seat's name at the end
ALTER TABLE results ADD COLUMN tickets_failed INTEGER CHECK (tickets_failed >= 0);
ALTER TABLE results ADD COLUMN longest_bonus INTEGER CHECK (longest_bonus IN (0, 1));  -- NULL: no such bonus
ALTER TABLE results ADD COLUMN turns_human INTEGER CHECK (turns_human >= 0);
ALTER TABLE results ADD COLUMN turns_total INTEGER CHECK (turns_total >= 0);
ALTER TABLE results ADD COLUMN handover TEXT;             -- 'left', 'replaced', ...: see seats
ALTER TABLE results ADD COLUMN rated INTEGER CHECK (rated IN (0, 1));   -- the seat entered the ratings

UPDATE results SET guild_id = (SELECT g.guild_id FROM games g WHERE g.id = results.game_id);
-- a result's seat is the seat's index in the game: the seats in order, gaps skipped
UPDATE results SET name = (
    SELECT s.display_name FROM seats s WHERE s.game_id = results.game_id
      AND (SELECT COUNT(*) FROM seats t WHERE t.game_id = s.game_id AND t.seat < s.seat)
          = results.seat);

-- a user's results in a server (statistics, their history), newest first
CREATE INDEX results_by_guild_user ON results (guild_id, user_id, finished_at);
CREATE INDEX results_by_guild_former ON results (guild_id, former_user_id, finished_at)
    WHERE former_user_id IS NOT NULL;
-- a map's leaderboard: the rated seats of a server on a map
CREATE INDEX results_rated_by_map ON results (guild_id, map, user_id, former_user_id)
    WHERE rated = 1;
-- a server's history, newest first
CREATE INDEX games_finished_by_guild ON games (guild_id, finished_at, id)
    WHERE status = 'finished';

-- A player's rating in a scope: a server (its guild id) or every server (0). `value` is what
-- the leaderboard sorts by, as the service computed it (mu - 3 sigma).
CREATE TABLE ratings (
    scope      INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    value      REAL    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 1),   -- rated games in the scope
    updated_at REAL    NOT NULL,
    PRIMARY KEY (scope, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (scope, value DESC, user_id);

-- The games rated, in the order they were rated (each in the transaction that finished it):
-- replaying them in this order through the same rating function gives the stored ratings.
CREATE TABLE rated_games (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id  INTEGER NOT NULL UNIQUE REFERENCES games (id),   -- a game is rated once
    rated_at REAL    NOT NULL
);

-- What each rated game did to each player's rating, per scope (NULL before: the first game).
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    scope        INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, scope, user_id)
) WITHOUT ROWID;
