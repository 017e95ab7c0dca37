-- A flag keeps its document's file name (as it keeps the personality's): an owner deleting a held
-- document set document_id to null, and the admin reviewing the flag no longer saw which document
-- it was. Older processes of a rolling upgrade insert without it (nullable: the join still names a
-- document that exists).
ALTER TABLE "content_flags" ADD COLUMN "document_name" text;--> statement-breakpoint
UPDATE "content_flags" AS f SET "document_name" = d."file_name" FROM "personality_documents" AS d WHERE d."id" = f."document_id";
