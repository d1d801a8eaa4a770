ALTER TABLE "farm"."harvests" ADD COLUMN "early" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "farm"."harvests" AS "h" SET "early" = "h"."harvested_at" < "b"."expected_harvest_at" FROM "farm"."batches" AS "b" WHERE "b"."id" = "h"."batch_id";
