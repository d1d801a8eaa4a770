ALTER TABLE "transport"."events" ALTER COLUMN "distance_km" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transport"."events" ALTER COLUMN "kg_co2e" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transport"."events" ADD COLUMN "exact_distance_km" double precision;--> statement-breakpoint
ALTER TABLE "transport"."events" ADD COLUMN "exact_kg_co2e" double precision;--> statement-breakpoint
-- What was stored is the measured figure: kept for the handler's footprint, and the shown one is rounded to the
-- step of the event's privacy level (fuzzy 5 km, city 10 km, country 100 km) or none when hidden; emissions are
-- proportional to the distance, so they scale with it. The ledger's entries stay as they were written.
UPDATE "transport"."events" SET "exact_distance_km" = "distance_km", "exact_kg_co2e" = "kg_co2e";--> statement-breakpoint
UPDATE "transport"."events" SET
  "distance_km" = CASE "privacy_level"
    WHEN 'hidden' THEN NULL
    WHEN 'fuzzy' THEN round("exact_distance_km" / 5) * 5
    WHEN 'city' THEN round("exact_distance_km" / 10) * 10
    WHEN 'country' THEN round("exact_distance_km" / 100) * 100
  END,
  "kg_co2e" = CASE "privacy_level"
    WHEN 'hidden' THEN NULL
    WHEN 'fuzzy' THEN CASE WHEN "exact_distance_km" > 0 THEN round(("exact_kg_co2e" * (round("exact_distance_km" / 5) * 5) / "exact_distance_km")::numeric, 3)::float8 ELSE "exact_kg_co2e" END
    WHEN 'city' THEN CASE WHEN "exact_distance_km" > 0 THEN round(("exact_kg_co2e" * (round("exact_distance_km" / 10) * 10) / "exact_distance_km")::numeric, 3)::float8 ELSE "exact_kg_co2e" END
    WHEN 'country' THEN CASE WHEN "exact_distance_km" > 0 THEN round(("exact_kg_co2e" * (round("exact_distance_km" / 100) * 100) / "exact_distance_km")::numeric, 3)::float8 ELSE "exact_kg_co2e" END
  END
WHERE "privacy_level" <> 'exact';--> statement-breakpoint
ALTER TABLE "transport"."events" ALTER COLUMN "exact_distance_km" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "transport"."events" ALTER COLUMN "exact_kg_co2e" SET NOT NULL;--> statement-breakpoint
-- The running totals are sums of the shown figures of the events in force.
UPDATE "transport"."journey_totals" t SET
  "distance_km" = coalesce(s.distance_km, 0),
  "kg_co2e" = coalesce(s.kg_co2e, 0)
FROM (
  SELECT coalesce(e."plant_id", e."seed_lot_id") AS subject, sum(e."distance_km") AS distance_km, sum(e."kg_co2e") AS kg_co2e
  FROM "transport"."events" e
  WHERE NOT EXISTS (SELECT 1 FROM "transport"."corrected_events" c WHERE c."id" = e."id")
  GROUP BY 1
) s
WHERE t."subject" = s.subject;
