CREATE TABLE "auth_sign_in_attempts" (
	"email" text NOT NULL,
	"ip_address" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	CONSTRAINT "auth_sign_in_attempts_email_ip_address_pk" PRIMARY KEY("email","ip_address")
);
--> statement-breakpoint
CREATE INDEX "auth_sign_in_attempts_ip_idx" ON "auth_sign_in_attempts" USING btree ("ip_address","last_failure_at");
