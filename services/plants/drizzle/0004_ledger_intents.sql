CREATE TABLE "plants"."ledger_intents" (
	"tx_id" text PRIMARY KEY NOT NULL,
	"tx_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"record" jsonb NOT NULL,
	"events" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "ledger_intents_open_idx" ON "plants"."ledger_intents" USING btree ("created_at") WHERE "failed_at" is null;