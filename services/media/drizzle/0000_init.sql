CREATE SCHEMA "media";
--> statement-breakpoint
CREATE TABLE "media"."files" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"mime_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer,
	"height" integer,
	"original_name" text NOT NULL,
	"category" text NOT NULL,
	"entity_type" text,
	"entity_id" text,
	"exif" jsonb,
	"gps_served" boolean DEFAULT false NOT NULL,
	"original_key" text NOT NULL,
	"thumbnails" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "media"."jobs" (
	"job" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_removed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "media"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "files_owner_idx" ON "media"."files" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "files_entity_idx" ON "media"."files" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "files_expiry_idx" ON "media"."files" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "files_deleted_idx" ON "media"."files" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "media"."outbox" USING btree ("seq") WHERE "published_at" is null;