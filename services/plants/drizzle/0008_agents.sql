CREATE TABLE "plants"."agents" (
	"agent" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_run_ms" integer,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
INSERT INTO "plants"."agents" ("agent", "state", "since", "next_run_at", "claimed_at", "runs", "last_run_at", "last_run_ms", "counts")
SELECT "agent", "state", "since", "next_run_at", "claimed_at", "runs", "last_run_at", "last_run_ms", jsonb_build_object('anomaliesFound', "anomalies_found")
FROM "plants"."lineage_agent"
ON CONFLICT ("agent") DO NOTHING;
