-- Character cards (issue 17): a greeting that opens chats, an avatar image (a PNG card's picture),
-- and the lorebook an imported card brought (its entries' keys and settings, for export) with the
-- knowledge document that holds its text.
ALTER TABLE "personalities" ADD COLUMN "greeting" text;--> statement-breakpoint
ALTER TABLE "personalities" ADD COLUMN "avatar_key" text;--> statement-breakpoint
ALTER TABLE "personalities" ADD COLUMN "card_book" jsonb;--> statement-breakpoint
ALTER TABLE "personalities" ADD COLUMN "lorebook_document_id" uuid;--> statement-breakpoint
ALTER TABLE "personalities" ADD CONSTRAINT "personalities_lorebook_document_id_personality_documents_id_fk" FOREIGN KEY ("lorebook_document_id") REFERENCES "public"."personality_documents"("id") ON DELETE set null ON UPDATE no action;
