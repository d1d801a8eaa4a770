CREATE TABLE "notify"."digest_runs" (
	"week_start" text PRIMARY KEY NOT NULL,
	"instance" text NOT NULL,
	"recipients" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
