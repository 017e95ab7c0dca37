-- The characters counted so far for each agent call (modules/voice/agent-call-credits.ts), kept in
-- the database so that several app processes share one tally per call: kept per process, a forged
-- call token could spend its share once on every process. Rows older than any real call are removed.
CREATE TABLE "agent_call_tallies" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"chars" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE INDEX "agent_call_tallies_issued_at_idx" ON "agent_call_tallies" USING btree ("issued_at");
