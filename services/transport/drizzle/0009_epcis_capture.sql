CREATE TABLE "transport"."epcis_captured_events" (
	"epcis_event_id" text PRIMARY KEY NOT NULL,
	"transport_event_id" text NOT NULL,
	"capture_id" text NOT NULL,
	"account_id" text NOT NULL,
	CONSTRAINT "epcis_captured_events_transport_event_id_unique" UNIQUE("transport_event_id")
);
--> statement-breakpoint
CREATE TABLE "transport"."epcis_captures" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"error_behaviour" text NOT NULL,
	"document" jsonb,
	"handler" jsonb NOT NULL,
	"event_count" integer NOT NULL,
	"captured_count" integer DEFAULT 0 NOT NULL,
	"running" boolean DEFAULT true NOT NULL,
	"success" boolean DEFAULT true NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "epcis_captures_account_idx" ON "transport"."epcis_captures" USING btree ("account_id","created_at");