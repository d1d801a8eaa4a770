ALTER TABLE "transparency"."webhooks" ADD COLUMN "scope" text DEFAULT 'own' NOT NULL;--> statement-breakpoint
ALTER TABLE "transparency"."webhooks" ADD COLUMN "area" jsonb;--> statement-breakpoint
CREATE INDEX "webhooks_public_idx" ON "transparency"."webhooks" USING btree ("status") WHERE "transparency"."webhooks"."scope" = 'public';