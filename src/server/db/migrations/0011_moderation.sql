CREATE TABLE "content_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"personality_id" uuid NOT NULL,
	"document_id" uuid,
	"flagged_by_user_id" text,
	"source" text NOT NULL,
	"flag_type" text NOT NULL,
	"confidence" real NOT NULL,
	"content_excerpt" text NOT NULL,
	"report_reason" text,
	"held_document" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"admin_notes" text,
	"reviewed_at" timestamp with time zone,
	"reviewed_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_flags" ADD CONSTRAINT "content_flags_personality_id_personalities_id_fk" FOREIGN KEY ("personality_id") REFERENCES "public"."personalities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_flags" ADD CONSTRAINT "content_flags_document_id_personality_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."personality_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_flags" ADD CONSTRAINT "content_flags_flagged_by_user_id_user_id_fk" FOREIGN KEY ("flagged_by_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_flags" ADD CONSTRAINT "content_flags_reviewed_by_user_id_user_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_flags_status_created_idx" ON "content_flags" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "content_flags_document_idx" ON "content_flags" USING btree ("document_id");
