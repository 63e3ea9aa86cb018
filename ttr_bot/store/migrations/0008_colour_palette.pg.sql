-- PostgreSQL dialect of 0008_colour_palette.sqlite.sql (see there for what it is for).
ALTER TABLE users ADD COLUMN palette TEXT;
