CREATE SCHEMA "chain";
--> statement-breakpoint
CREATE TABLE "chain"."blocks" (
	"index" integer PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"previous_hash" text NOT NULL,
	"merkle_root" text NOT NULL,
	"timestamp" text NOT NULL,
	"difficulty" integer NOT NULL,
	"nonce" bigint NOT NULL,
	"tx_count" integer NOT NULL,
	CONSTRAINT "blocks_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "chain"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "chain"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain"."transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"block_index" integer NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"payload_hash" text NOT NULL,
	"timestamp" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chain"."transactions" ADD CONSTRAINT "transactions_block_index_blocks_index_fk" FOREIGN KEY ("block_index") REFERENCES "chain"."blocks"("index") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "chain"."outbox" USING btree ("seq") WHERE "published_at" is null;--> statement-breakpoint
CREATE INDEX "transactions_block_idx" ON "chain"."transactions" USING btree ("block_index","position");