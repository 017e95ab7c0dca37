-- Migration 0015 made content_flags.personality_name NOT NULL with no default: processes still
-- running the previous release (a rolling upgrade) insert flags without it, and each such flag
-- failed (a person's report answered 500; a flagged message was silently not filed). With a
-- default they keep working; the new code always writes the name.
ALTER TABLE "content_flags" ALTER COLUMN "personality_name" SET DEFAULT '';
