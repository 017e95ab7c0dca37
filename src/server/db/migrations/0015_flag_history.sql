-- Flags outlive their personality (an owner deleting it must not erase confirmed violations):
-- personality_id becomes nullable with ON DELETE SET NULL, and the flag keeps the personality's
-- name. checked_text_hash remembers the text an admin cleared, so reprocessing the same document
-- text does not flag and hold it again.
ALTER TABLE "content_flags" ADD COLUMN "personality_name" text;--> statement-breakpoint
UPDATE "content_flags" AS f SET "personality_name" = p."name" FROM "personalities" AS p WHERE p."id" = f."personality_id";--> statement-breakpoint
UPDATE "content_flags" SET "personality_name" = '' WHERE "personality_name" IS NULL;--> statement-breakpoint
ALTER TABLE "content_flags" ALTER COLUMN "personality_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "content_flags" DROP CONSTRAINT "content_flags_personality_id_personalities_id_fk";--> statement-breakpoint
ALTER TABLE "content_flags" ALTER COLUMN "personality_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "content_flags" ADD CONSTRAINT "content_flags_personality_id_personalities_id_fk" FOREIGN KEY ("personality_id") REFERENCES "public"."personalities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_flags" ADD COLUMN "checked_text_hash" text;
