CREATE TABLE "transport"."epcis_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"query_name" text NOT NULL,
	"dest" text NOT NULL,
	"webhook_id" text NOT NULL,
	"stream" boolean NOT NULL,
	"report_if_empty" boolean NOT NULL,
	"initial_record_time" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport"."inbox" (
	"consumer" text NOT NULL,
	"event_id" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbox_pkey" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
ALTER TABLE "transport"."epcis_captured_events" ADD COLUMN "biz_location" text;--> statement-breakpoint
CREATE INDEX "epcis_subscriptions_query_idx" ON "transport"."epcis_subscriptions" USING btree ("account_id","query_name","created_at");