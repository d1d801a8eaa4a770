CREATE TABLE "transparency"."public_events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "public_events_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE INDEX "public_events_kind_idx" ON "transparency"."public_events" USING btree ("kind","seq");