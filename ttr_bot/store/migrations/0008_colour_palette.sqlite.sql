-- A player's colour palette for their own pictures (issue 24, /ttr me colours): NULL or
-- 'standard' the usual player colours; 'colourblind' the ones that stay apart to colour-blind
-- eyes (render/palette.py SCHEMES). A game's public pictures follow the game's own option.
ALTER TABLE users ADD COLUMN palette TEXT;
