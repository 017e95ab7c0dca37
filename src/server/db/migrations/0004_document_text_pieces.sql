CREATE TABLE "personality_document_texts" (
	"document_id" uuid NOT NULL,
	"piece_index" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "personality_document_texts_document_id_piece_index_pk" PRIMARY KEY("document_id","piece_index")
);
--> statement-breakpoint
ALTER TABLE "personality_document_texts" ADD CONSTRAINT "personality_document_texts_document_id_personality_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."personality_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Existing texts move over as one piece each (new ones are written in pieces by the server).
INSERT INTO "personality_document_texts" ("document_id", "piece_index", "text")
  SELECT "id", 0, "content" FROM "personality_documents" WHERE "content" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_documents" DROP COLUMN "content";