CREATE TABLE IF NOT EXISTS "elevenlabs_usage" (
	"date" date PRIMARY KEY NOT NULL,
	"credits_used" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "elevenlabs_usage_credits_nonnegative" CHECK ("credits_used" >= 0)
);
