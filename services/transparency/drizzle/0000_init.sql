CREATE SCHEMA "transparency";
--> statement-breakpoint
CREATE TABLE "transparency"."audit_entries" (
	"index" bigint PRIMARY KEY NOT NULL,
	"body" text NOT NULL,
	"leaf_hash" text NOT NULL,
	"event_id" text,
	"kind" text NOT NULL,
	"actor" text,
	"entity" text,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "audit_entries_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "transparency"."audit_head" (
	"id" integer PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"frontier" jsonb NOT NULL,
	"root_hash" text NOT NULL,
	"last_hash" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transparency"."audit_nodes" (
	"level" integer NOT NULL,
	"idx" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_nodes_pkey" PRIMARY KEY("level","idx")
);
--> statement-breakpoint
CREATE TABLE "transparency"."inbox" (
	"consumer" text NOT NULL,
	"event_id" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbox_pkey" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "transparency"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "transparency"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_entries_actor_idx" ON "transparency"."audit_entries" USING btree ("actor","index");--> statement-breakpoint
CREATE INDEX "audit_entries_kind_idx" ON "transparency"."audit_entries" USING btree ("kind","index");--> statement-breakpoint
CREATE INDEX "audit_entries_entity_idx" ON "transparency"."audit_entries" USING btree ("entity","index");--> statement-breakpoint
CREATE INDEX "audit_entries_occurred_idx" ON "transparency"."audit_entries" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "transparency"."outbox" USING btree ("seq") WHERE "published_at" is null;