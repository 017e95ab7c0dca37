-- Indexes only (safe for a rolling upgrade: the previous release's statements are unchanged).
-- content_flags_reviewed_idx: the admin's "Recently Reviewed" (the 10 latest reviews) sorted every
-- reviewed flag (874 ms at 90,000, and the embedded database serves nobody else meanwhile). Its
-- predicate is written as the query's (status <> 'pending') so the planner can use it.
-- The others index foreign keys a delete looks up (ON DELETE SET NULL): deleting a personality
-- read every flag (1.7 s at 100,000), deleting a user every flag and question (0.4 s); the same
-- holds for public requests (their pending-only unique index does not serve a delete).
-- Plain CREATE INDEX: migrations run inside one transaction, where CREATE INDEX CONCURRENTLY cannot
-- run. It holds off writes to the table while it builds, briefly at these tables' sizes; an
-- operator with a far larger PostgreSQL database can create these CONCURRENTLY by hand first, and
-- IF NOT EXISTS then skips them.
CREATE INDEX IF NOT EXISTS "content_flags_reviewed_idx" ON "content_flags" USING btree ("reviewed_at" DESC) WHERE status <> 'pending';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_flags_personality_idx" ON "content_flags" USING btree ("personality_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_flags_flagged_by_idx" ON "content_flags" USING btree ("flagged_by_user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_flags_reviewed_by_idx" ON "content_flags" USING btree ("reviewed_by_user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "personality_questions_user_idx" ON "personality_questions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "public_requests_personality_idx" ON "personality_public_requests" USING btree ("personality_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "public_requests_requested_by_idx" ON "personality_public_requests" USING btree ("requested_by_user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "public_requests_reviewed_by_idx" ON "personality_public_requests" USING btree ("reviewed_by_user_id");
