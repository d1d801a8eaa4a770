ALTER TABLE "farm"."readings" ADD COLUMN "fingerprint" text;--> statement-breakpoint
CREATE UNIQUE INDEX "readings_batch_reading_key" ON "farm"."readings" USING btree ("batch_id","at","fingerprint");--> statement-breakpoint
DROP INDEX "farm"."readings_batch_idx";
