ALTER TABLE "demand"."offers" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
CREATE INDEX "offers_buyer_idx" ON "demand"."offers" USING btree ("buyer_id","created_at");--> statement-breakpoint
-- Reasons of earlier rejections where the rows prove them: a sale and the rejections it caused share one transaction
-- time, as does a cancellation (final, so the listing's time stays). The rest stay null: a seller's decline and a
-- listing paused and changed since cannot be told apart.
UPDATE "demand"."offers" AS "o" SET "rejection_reason" = 'sold-out' WHERE "o"."status" = 'rejected' AND EXISTS (
  SELECT 1 FROM "demand"."offers" AS "a"
  WHERE "a"."listing_id" = "o"."listing_id" AND "a"."status" = 'accepted' AND "a"."updated_at" = "o"."updated_at"
);--> statement-breakpoint
UPDATE "demand"."offers" AS "o" SET "rejection_reason" = 'listing-cancelled' FROM "demand"."listings" AS "l"
  WHERE "l"."id" = "o"."listing_id" AND "l"."status" = 'cancelled' AND "l"."updated_at" = "o"."updated_at"
  AND "o"."status" = 'rejected' AND "o"."rejection_reason" IS NULL;
