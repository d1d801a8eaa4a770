CREATE TABLE "demand"."match_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"grower_id" text NOT NULL,
	"crop" text,
	"requested_km" double precision NOT NULL,
	"applied_km" double precision NOT NULL,
	"refused" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Households saved before: they count from their last save, and their items have been in effect since that week.
ALTER TABLE "demand"."preferences" ADD COLUMN "counted_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "demand"."preferences" ADD COLUMN "items_week" text;--> statement-breakpoint
UPDATE "demand"."preferences" SET "counted_from" = "updated_at",
  "items_week" = to_char(date_trunc('week', "updated_at" AT TIME ZONE 'UTC'), 'YYYY-MM-DD');--> statement-breakpoint
ALTER TABLE "demand"."preferences" ALTER COLUMN "counted_from" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "demand"."preferences" ALTER COLUMN "items_week" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "demand"."preferences" ADD COLUMN "prior_items" jsonb;--> statement-breakpoint
CREATE INDEX "match_runs_grower_idx" ON "demand"."match_runs" USING btree ("grower_id","created_at");