CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"document_id" uuid,
	"dedupe_key" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "chunks_document_idx";--> statement-breakpoint
ALTER TABLE "personality_document_chunks" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', content)) STORED;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "mime_type" text;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "size_bytes" integer;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "processing_state" text DEFAULT 'idle' NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "chunk_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "embedded_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_documents" ADD COLUMN "processed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_document_id_personality_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."personality_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("status","run_after");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_active_dedupe_unique" ON "jobs" USING btree ("dedupe_key") WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_document_idx" ON "jobs" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chunks_document_index_unique" ON "personality_document_chunks" USING btree ("document_id","chunk_index");--> statement-breakpoint
CREATE INDEX "chunks_tsv_idx" ON "personality_document_chunks" USING gin ("tsv");