CREATE TABLE "transport"."corrected_events" (
	"id" text PRIMARY KEY NOT NULL,
	"corrected_by" text NOT NULL,
	"corrected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transport"."journey_lots" (
	"plant_id" text NOT NULL,
	"seed_lot_id" text NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	CONSTRAINT "journey_lots_plant_id_seed_lot_id_pk" PRIMARY KEY("plant_id","seed_lot_id")
);
--> statement-breakpoint
CREATE TABLE "transport"."journey_totals" (
	"subject" text PRIMARY KEY NOT NULL,
	"recorded" integer DEFAULT 0 NOT NULL,
	"in_force" integer DEFAULT 0 NOT NULL,
	"distance_km" double precision DEFAULT 0 NOT NULL,
	"kg_co2e" double precision DEFAULT 0 NOT NULL,
	"latest_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transport"."pending_events" (
	"id" text PRIMARY KEY NOT NULL,
	"plant_id" text NOT NULL,
	"tx_id" text NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "transport"."events_plant_idx";--> statement-breakpoint
DROP INDEX "transport"."events_seed_lot_idx";--> statement-breakpoint
CREATE INDEX "pending_events_plant_idx" ON "transport"."pending_events" USING btree ("plant_id","event_at");--> statement-breakpoint
CREATE INDEX "events_plant_idx" ON "transport"."events" USING btree ("plant_id","event_at","recorded_at","id");--> statement-breakpoint
CREATE INDEX "events_seed_lot_idx" ON "transport"."events" USING btree ("seed_lot_id","event_at","recorded_at","id");--> statement-breakpoint
-- What the events stored before this migration leave in the new tables; the statements that store events keep them since.
INSERT INTO "transport"."corrected_events" ("id", "corrected_by", "corrected_at")
SELECT DISTINCT ON (corrects) corrects, id, recorded_at FROM "transport"."events"
WHERE corrects IS NOT NULL
ORDER BY corrects, recorded_at DESC, id DESC;--> statement-breakpoint
INSERT INTO "transport"."journey_totals" ("subject", "recorded", "in_force", "distance_km", "kg_co2e", "latest_at")
SELECT coalesce(e.plant_id, e.seed_lot_id), count(*), count(*) FILTER (WHERE c.id IS NULL),
  coalesce(sum(e.distance_km) FILTER (WHERE c.id IS NULL), 0), coalesce(sum(e.kg_co2e) FILTER (WHERE c.id IS NULL), 0),
  max(e.event_at)
FROM "transport"."events" e LEFT JOIN "transport"."corrected_events" c ON c.id = e.id
GROUP BY coalesce(e.plant_id, e.seed_lot_id);--> statement-breakpoint
INSERT INTO "transport"."journey_lots" ("plant_id", "seed_lot_id", "first_at")
SELECT plant_id, seed_lot_id, min(event_at) FROM "transport"."events"
WHERE plant_id IS NOT NULL AND seed_lot_id IS NOT NULL
GROUP BY plant_id, seed_lot_id;
