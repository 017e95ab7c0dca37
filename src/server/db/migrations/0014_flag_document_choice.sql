ALTER TABLE "content_flags" ADD COLUMN "document_was_private" boolean DEFAULT false NOT NULL;
