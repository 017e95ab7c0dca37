-- The fields of an imported character card that Kindred does not use (example dialogue, alternate
-- greetings, creator notes, tags, creator, version, extensions), kept to be written back on export.
ALTER TABLE "personalities" ADD COLUMN "card_extras" jsonb;
