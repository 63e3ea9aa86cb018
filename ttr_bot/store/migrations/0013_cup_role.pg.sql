-- PostgreSQL dialect of 0013_cup_role.sqlite.sql (see there for what it is for).
ALTER TABLE guild_settings ADD COLUMN cup_role BIGINT;
