-- 0004 (PostgreSQL): the language of a game's posts that no interaction causes.
ALTER TABLE games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'es'));
