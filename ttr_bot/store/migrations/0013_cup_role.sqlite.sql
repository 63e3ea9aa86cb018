-- The role a server names for cups (issue 34, /ttr server cup_role): its members may create and
-- cancel the server's cups as a member with Manage Server may. NULL: Manage Server only.
ALTER TABLE guild_settings ADD COLUMN cup_role INTEGER;
