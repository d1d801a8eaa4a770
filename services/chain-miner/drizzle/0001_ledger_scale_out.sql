CREATE TABLE "chain"."appender_lease" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"process" text NOT NULL,
	"term" bigint NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"hashes" bigint DEFAULT 0 NOT NULL,
	"hash_rate" double precision DEFAULT 0 NOT NULL,
	"helpers" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain"."mempool" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "chain"."mempool_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"payload_hash" text NOT NULL,
	"timestamp" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chain"."blocks" ADD COLUMN "tx_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Running totals for blocks stored before the column existed.
UPDATE "chain"."blocks" AS b SET "tx_total" = s."total" FROM (SELECT "index", sum("tx_count") OVER (ORDER BY "index") AS "total" FROM "chain"."blocks") AS s WHERE b."index" = s."index";--> statement-breakpoint
CREATE INDEX "mempool_seq_idx" ON "chain"."mempool" USING btree ("seq");