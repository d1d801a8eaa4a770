CREATE TABLE "farm"."reading_days" (
	"batch_id" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"readings" integer NOT NULL,
	"in_target" integer NOT NULL,
	CONSTRAINT "reading_days_batch_id_day_pk" PRIMARY KEY("batch_id","day")
);
--> statement-breakpoint
CREATE TABLE "farm"."reading_totals" (
	"batch_id" text PRIMARY KEY NOT NULL,
	"farm_id" text NOT NULL,
	"readings" integer NOT NULL,
	"in_target" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Backfill from the readings stored so far. SHARE mode lets reads through but holds writers (a replica still on the
-- previous version) until the migration commits, so no reading lands between the backfill and the new write path.
LOCK TABLE "farm"."readings" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "farm"."reading_totals" ("batch_id", "farm_id", "readings", "in_target", "first_at", "last_at")
SELECT "batch_id", min("farm_id"), count(*), count(*) FILTER (WHERE "in_target"), min("at"), max("at")
FROM "farm"."readings" GROUP BY "batch_id";--> statement-breakpoint
INSERT INTO "farm"."reading_days" ("batch_id", "day", "readings", "in_target")
SELECT "batch_id", date_trunc('day', "at", 'UTC'), count(*), count(*) FILTER (WHERE "in_target")
FROM "farm"."readings" GROUP BY 1, 2;--> statement-breakpoint
-- The indexes after the backfill: built once rather than row by row.
CREATE INDEX "reading_days_counts_idx" ON "farm"."reading_days" USING btree ("batch_id","day","readings","in_target");--> statement-breakpoint
CREATE INDEX "reading_totals_farm_idx" ON "farm"."reading_totals" USING btree ("farm_id","first_at");
