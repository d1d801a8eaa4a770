CREATE TABLE "transparency"."checkpoint_cosignatures" (
	"witness" text PRIMARY KEY NOT NULL,
	"tree_size" bigint NOT NULL,
	"root_hash" text NOT NULL,
	"line" text NOT NULL,
	"cosigned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transparency"."witnessed_logs" (
	"origin" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"root_hash" text NOT NULL,
	"note" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "checkpoint_cosignatures_size_idx" ON "transparency"."checkpoint_cosignatures" USING btree ("tree_size");