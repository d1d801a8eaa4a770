CREATE SCHEMA "farm";
--> statement-breakpoint
CREATE TABLE "farm"."batches" (
	"id" text PRIMARY KEY NOT NULL,
	"farm_id" text NOT NULL,
	"zone_id" text NOT NULL,
	"recipe_id" text NOT NULL,
	"crop" text NOT NULL,
	"variety" text NOT NULL,
	"plant_count" integer NOT NULL,
	"seed_source" jsonb NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"expected_harvest_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"failure_reason" text,
	"ready_notified_at" timestamp with time zone,
	"owner_id" text NOT NULL,
	"started_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm"."deviations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "farm"."deviations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"batch_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"metric" text NOT NULL,
	"value" double precision NOT NULL,
	"min" double precision NOT NULL,
	"max" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm"."farms" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"location" jsonb NOT NULL,
	"floor_area_m2" double precision NOT NULL,
	"levels" integer NOT NULL,
	"lighting_system" text NOT NULL,
	"climate_system" text NOT NULL,
	"owner_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm"."harvests" (
	"id" text PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"farm_id" text NOT NULL,
	"yield_kg" double precision NOT NULL,
	"quality_grade" text NOT NULL,
	"notes" text,
	"harvested_at" timestamp with time zone NOT NULL,
	"harvested_by" text NOT NULL,
	"block_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"tx_id" text NOT NULL,
	CONSTRAINT "harvests_batch_id_unique" UNIQUE("batch_id")
);
--> statement-breakpoint
CREATE TABLE "farm"."jobs" (
	"job" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "farm"."ledger_intents" (
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
CREATE TABLE "farm"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "farm"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm"."readings" (
	"batch_id" text NOT NULL,
	"farm_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"temperature_c" real,
	"humidity_pct" real,
	"co2_ppm" real,
	"ppfd" real,
	"ec_ms_cm" real,
	"ph" real,
	"water_temperature_c" real,
	"dissolved_oxygen_mg_l" real,
	"in_target" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm"."recipes" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"crop" text NOT NULL,
	"version" integer NOT NULL,
	"parent_id" text,
	"author_id" text,
	"phases" jsonb NOT NULL,
	"sources" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm"."zones" (
	"id" text PRIMARY KEY NOT NULL,
	"farm_id" text NOT NULL,
	"name" text NOT NULL,
	"level" integer NOT NULL,
	"area_m2" double precision NOT NULL,
	"growing_method" text NOT NULL,
	"capacity" integer NOT NULL,
	"setpoints" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "batches_farm_idx" ON "farm"."batches" USING btree ("farm_id","started_at");--> statement-breakpoint
CREATE INDEX "batches_zone_open_idx" ON "farm"."batches" USING btree ("zone_id","status");--> statement-breakpoint
CREATE INDEX "batches_ready_idx" ON "farm"."batches" USING btree ("expected_harvest_at") WHERE status = 'open' and ready_notified_at is null;--> statement-breakpoint
CREATE INDEX "deviations_batch_idx" ON "farm"."deviations" USING btree ("batch_id","at");--> statement-breakpoint
CREATE INDEX "farms_owner_idx" ON "farm"."farms" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "ledger_intents_open_idx" ON "farm"."ledger_intents" USING btree ("created_at") WHERE "failed_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "farm"."outbox" USING btree ("seq") WHERE "published_at" is null;--> statement-breakpoint
CREATE INDEX "readings_batch_idx" ON "farm"."readings" USING btree ("batch_id","at");--> statement-breakpoint
CREATE INDEX "readings_farm_idx" ON "farm"."readings" USING btree ("farm_id","at");--> statement-breakpoint
CREATE INDEX "recipes_crop_idx" ON "farm"."recipes" USING btree ("crop","id");--> statement-breakpoint
CREATE INDEX "zones_farm_idx" ON "farm"."zones" USING btree ("farm_id");