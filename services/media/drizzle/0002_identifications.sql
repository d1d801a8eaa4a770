CREATE TABLE "media"."identifications" (
	"id" text PRIMARY KEY NOT NULL,
	"requested_by" text NOT NULL,
	"provider" text NOT NULL,
	"organs" jsonb NOT NULL,
	"candidates" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "identifications_requested_by_idx" ON "media"."identifications" USING btree ("requested_by");