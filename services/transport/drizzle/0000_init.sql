CREATE SCHEMA "transport";
--> statement-breakpoint
CREATE TABLE "transport"."events" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"plant_id" text,
	"seed_lot_id" text,
	"quantity" jsonb,
	"event_time" text NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"from_location" jsonb,
	"to_location" jsonb,
	"privacy_level" text NOT NULL,
	"transport_mode" text NOT NULL,
	"distance_km" double precision NOT NULL,
	"mass_kg" double precision NOT NULL,
	"kg_co2e" double precision NOT NULL,
	"handler_id" text NOT NULL,
	"handler_name" text NOT NULL,
	"recipient_id" text,
	"recipient_name" text,
	"sensor_readings" jsonb NOT NULL,
	"corrects" text,
	"notes" text,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" text,
	"block_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"tx_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport"."ledger_intents" (
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
CREATE TABLE "transport"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "transport"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport"."tracker_agent" (
	"agent" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_run_ms" integer,
	"events_scanned" integer DEFAULT 0 NOT NULL,
	"patterns_found" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport"."tracker_patterns" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "transport"."tracker_patterns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"event_id" text NOT NULL,
	"user_id" text NOT NULL,
	"plant_id" text,
	"kg_co2e" double precision NOT NULL,
	"reason" text NOT NULL,
	"detected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_plant_idx" ON "transport"."events" USING btree ("plant_id","event_at");--> statement-breakpoint
CREATE INDEX "events_seed_lot_idx" ON "transport"."events" USING btree ("seed_lot_id","event_at");--> statement-breakpoint
CREATE INDEX "events_handler_idx" ON "transport"."events" USING btree ("handler_id");--> statement-breakpoint
CREATE INDEX "events_corrects_idx" ON "transport"."events" USING btree ("corrects");--> statement-breakpoint
CREATE INDEX "events_tx_idx" ON "transport"."events" USING btree ("tx_id");--> statement-breakpoint
CREATE INDEX "ledger_intents_open_idx" ON "transport"."ledger_intents" USING btree ("created_at") WHERE "failed_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "transport"."outbox" USING btree ("seq") WHERE "published_at" is null;--> statement-breakpoint
CREATE INDEX "tracker_patterns_kind_idx" ON "transport"."tracker_patterns" USING btree ("kind","id");