-- A computer player can take over a human's seat in a game in play (the player left, or the
-- host or an admin replaced them; later also a player who timed out). The seat then has a
-- bot_level and no user_id, like any computer seat, and former_user_id remembers who held it.
ALTER TABLE seats ADD COLUMN former_user_id INTEGER
    CHECK (former_user_id IS NULL OR user_id IS NULL);  -- only a computer seat has a former holder

-- The results of such a seat: user_id is NULL, because the computer finished the game and its
-- win or loss is not the player's; former_user_id is the player who left, so their history
-- still lists the game (as left, not as won or lost).
ALTER TABLE results ADD COLUMN former_user_id INTEGER;
CREATE INDEX results_by_former_user ON results (former_user_id, finished_at)
    WHERE former_user_id IS NOT NULL;
