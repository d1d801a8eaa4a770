CREATE TABLE "plants"."ownership_records" (
	"transfer_id" text PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"from_id" text NOT NULL,
	"from_name" text NOT NULL,
	"to_id" text NOT NULL,
	"to_name" text NOT NULL,
	"given_by" jsonb NOT NULL,
	"accepted_by" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"block_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"tx_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plants"."ownership_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"from_id" text NOT NULL,
	"from_name" text NOT NULL,
	"to_id" text NOT NULL,
	"to_name" text NOT NULL,
	"message" text,
	"given_by" jsonb NOT NULL,
	"accepted_by" jsonb,
	"decided_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "ownership_records_subject_idx" ON "plants"."ownership_records" USING btree ("subject_type","subject_id","recorded_at");--> statement-breakpoint
CREATE INDEX "ownership_transfers_to_idx" ON "plants"."ownership_transfers" USING btree ("to_id","created_at");--> statement-breakpoint
CREATE INDEX "ownership_transfers_from_idx" ON "plants"."ownership_transfers" USING btree ("from_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ownership_transfers_one_pending_idx" ON "plants"."ownership_transfers" USING btree ("subject_type","subject_id") WHERE "plants"."ownership_transfers"."status" = 'pending';