-- The language of a game's posts that no interaction causes (moves typed as plain messages,
-- notices): the accepting player's, or the server's setting when it is not `auto`.
ALTER TABLE games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'es'));
