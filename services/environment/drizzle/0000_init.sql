CREATE SCHEMA "environment";
--> statement-breakpoint
CREATE TABLE "environment"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "environment"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "environment"."plant_environments" (
	"plant_id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"species" text,
	"common_name" text NOT NULL,
	"current" jsonb NOT NULL,
	"category_times" jsonb NOT NULL,
	"features" jsonb NOT NULL,
	"health_score" double precision,
	"records" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"written_by" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "environment"."records" (
	"id" text PRIMARY KEY NOT NULL,
	"plant_id" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "environment"."outbox" USING btree ("seq") WHERE "published_at" is null;--> statement-breakpoint
CREATE INDEX "plant_environments_written_by_idx" ON "environment"."plant_environments" USING btree ("written_by");--> statement-breakpoint
CREATE INDEX "plant_environments_species_idx" ON "environment"."plant_environments" USING btree ("species");--> statement-breakpoint
CREATE INDEX "records_plant_idx" ON "environment"."records" USING btree ("plant_id","recorded_at" DESC NULLS LAST,"id" DESC NULLS LAST);