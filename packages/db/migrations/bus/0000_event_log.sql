CREATE SCHEMA "bus";
--> statement-breakpoint
CREATE TABLE "bus"."events" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"headers" text NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bus"."settled" (
	"durable" text NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "settled_pkey" PRIMARY KEY("durable","seq")
);
--> statement-breakpoint
CREATE INDEX "events_stored_at_idx" ON "bus"."events" USING btree ("stored_at");
