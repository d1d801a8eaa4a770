CREATE TABLE "plants"."remote_parents" (
	"plant_id" text PRIMARY KEY NOT NULL,
	"peer" text NOT NULL,
	"peer_url" text NOT NULL,
	"remote_plant_id" text NOT NULL,
	"common_name" text,
	"scientific_name" text,
	"generation" integer,
	"block_hash" text NOT NULL,
	"bundle_digest" text NOT NULL,
	"checkpoint_size" integer NOT NULL,
	"checkpoint_root" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL
);
