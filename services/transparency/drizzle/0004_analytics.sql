CREATE TABLE "transparency"."analytics_daily" (
	"series" text NOT NULL,
	"day" date NOT NULL,
	"d1" text DEFAULT '' NOT NULL,
	"d2" text DEFAULT '' NOT NULL,
	"d3" text DEFAULT '' NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"distance_km" double precision DEFAULT 0 NOT NULL,
	"kg_co2e" double precision DEFAULT 0 NOT NULL,
	"yield_kg" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_pkey" PRIMARY KEY("series","day","d1","d2","d3")
);
--> statement-breakpoint
CREATE TABLE "transparency"."analytics_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"built_from_audit_size" bigint NOT NULL,
	"built_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transparency"."analytics_transport_facts" (
	"event_id" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"mode" text NOT NULL,
	"handler_id" text NOT NULL,
	"distance_km" double precision NOT NULL,
	"kg_co2e" double precision NOT NULL,
	"in_force" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_daily_d1_idx" ON "transparency"."analytics_daily" USING btree ("series","d1","day");