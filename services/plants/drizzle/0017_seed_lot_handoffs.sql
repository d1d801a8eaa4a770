CREATE TABLE "plants"."seed_lot_handoffs" (
	"handoff_id" text NOT NULL,
	"direction" text NOT NULL,
	"peer" text NOT NULL,
	"seed_lot_id" text NOT NULL,
	"amount" double precision NOT NULL,
	"unit" text NOT NULL,
	"recipient" text NOT NULL,
	"event_id" text,
	"transaction_id" text,
	"peer_url" text,
	"remote_seed_lot_id" text,
	"remote_transaction_id" text,
	"block_hash" text,
	"bundle_digest" text,
	"checkpoint_size" integer,
	"checkpoint_root" text,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "seed_lot_handoffs_peer_handoff_id_direction_pk" PRIMARY KEY("peer","handoff_id","direction")
);
--> statement-breakpoint
CREATE INDEX "seed_lot_handoffs_lot_idx" ON "plants"."seed_lot_handoffs" USING btree ("seed_lot_id","created_at");