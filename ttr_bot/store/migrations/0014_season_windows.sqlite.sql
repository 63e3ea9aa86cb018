-- A closed season's span as it was closed (issue 34): the finishing times [started_at, ended_at)
-- it counted, in the server's time zone of that moment. The next season counts from its
-- `ended_at`, so a change of time zone (or of period) next to a boundary neither skips a game
-- nor counts one twice. NULL (seasons closed before this migration): the calendar's span.
ALTER TABLE seasons_closed ADD COLUMN started_at REAL;
ALTER TABLE seasons_closed ADD COLUMN ended_at REAL;
