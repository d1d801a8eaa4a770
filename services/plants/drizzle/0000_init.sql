CREATE SCHEMA "plants";
--> statement-breakpoint
CREATE TABLE "plants"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "plants"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plants"."plants" (
	"id" text PRIMARY KEY NOT NULL,
	"common_name" text NOT NULL,
	"scientific_name" text,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"city" text,
	"country" text,
	"owner_id" text NOT NULL,
	"owner_name" text NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"parent_id" text,
	"block_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"tx_id" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"registered_by" text
);
--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "plants"."outbox" USING btree ("seq") WHERE "published_at" is null;--> statement-breakpoint
CREATE INDEX "plants_owner_idx" ON "plants"."plants" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "plants_parent_idx" ON "plants"."plants" USING btree ("parent_id");