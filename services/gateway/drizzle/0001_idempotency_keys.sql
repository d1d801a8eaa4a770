CREATE TABLE "identity"."idempotency_keys" (
	"scope_hash" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response" text,
	"created_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "identity"."idempotency_keys" USING btree ("expires_at");