-- PostgreSQL dialect of 0014_season_windows.sqlite.sql (see there for what it is for).
ALTER TABLE seasons_closed ADD COLUMN started_at DOUBLE PRECISION;
ALTER TABLE seasons_closed ADD COLUMN ended_at DOUBLE PRECISION;
