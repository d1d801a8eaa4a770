ALTER TABLE "transport"."events" ADD COLUMN "handoff_id" text;--> statement-breakpoint
ALTER TABLE "transport"."events" ADD COLUMN "handoff_lot" jsonb;