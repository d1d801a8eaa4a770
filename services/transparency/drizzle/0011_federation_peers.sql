CREATE TABLE "transparency"."federation_bundles" (
	"peer" text NOT NULL,
	"entry_id" text NOT NULL,
	"tree_size" bigint NOT NULL,
	"root_hash" text NOT NULL,
	"bundle" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "federation_bundles_peer_entry_id_pk" PRIMARY KEY("peer","entry_id")
);
--> statement-breakpoint
CREATE TABLE "transparency"."federation_peers" (
	"name" text PRIMARY KEY NOT NULL,
	"origin" text NOT NULL,
	"state" text NOT NULL,
	"size" bigint,
	"root_hash" text,
	"note" text,
	"verified_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"problem" text,
	"fork_note" text
);
