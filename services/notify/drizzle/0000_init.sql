CREATE SCHEMA "notify";
--> statement-breakpoint
CREATE TABLE "notify"."deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"source_event_id" text NOT NULL,
	"channel" text NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"template" text NOT NULL,
	"params" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify"."inbox" (
	"consumer" text NOT NULL,
	"event_id" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbox_pkey" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "notify"."notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"data" jsonb NOT NULL,
	"source_event_id" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "notify"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify"."preferences" (
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"channel" text NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "preferences_user_id_type_channel_pk" PRIMARY KEY("user_id","type","channel")
);
--> statement-breakpoint
CREATE TABLE "notify"."recipients" (
	"user_id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_source_idx" ON "notify"."deliveries" USING btree ("source_event_id","channel","user_id");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "notify"."deliveries" USING btree ("next_attempt_at") WHERE "notify"."deliveries"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_source_idx" ON "notify"."notifications" USING btree ("source_event_id","user_id","type");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notify"."notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notify"."notifications" USING btree ("user_id") WHERE "notify"."notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "notify"."outbox" USING btree ("seq") WHERE "published_at" is null;