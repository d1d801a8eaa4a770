ALTER TABLE "transport"."epcis_subscriptions" ADD COLUMN "schedule" jsonb;--> statement-breakpoint
ALTER TABLE "transport"."epcis_subscriptions" ADD COLUMN "next_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transport"."epcis_subscriptions" ADD COLUMN "snapshot" text;--> statement-breakpoint
ALTER TABLE "transport"."epcis_subscriptions" ADD COLUMN "last_record_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transport"."events" ADD COLUMN "stored_xid" "xid8";--> statement-breakpoint
ALTER TABLE "transport"."events" ALTER COLUMN "stored_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "epcis_subscriptions_due_idx" ON "transport"."epcis_subscriptions" USING btree ("next_due_at") WHERE "transport"."epcis_subscriptions"."next_due_at" is not null;