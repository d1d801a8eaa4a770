ALTER TABLE "environment"."plant_environments" ADD COLUMN "measures" double precision[] DEFAULT '{}'::float8[] NOT NULL;--> statement-breakpoint
-- Rows written before the column existed: the same values, in MEASURES order (domain/measures.ts).
UPDATE "environment"."plant_environments" SET "measures" = ARRAY[
	(current -> 'soil' ->> 'ph')::float8,
	(current -> 'lighting' ->> 'hoursPerDay')::float8,
	(current -> 'lighting' ->> 'dli')::float8,
	(current -> 'climate' ->> 'temperatureC')::float8,
	(current -> 'climate' ->> 'humidityPercent')::float8,
	(current -> 'watering' ->> 'frequencyPerWeek')::float8,
	(current -> 'watering' ->> 'ph')::float8,
	(current -> 'nutrients' ->> 'ecMsCm')::float8,
	(current -> 'growth' ->> 'healthScore')::float8,
	(current -> 'growth' ->> 'growthRateCmPerWeek')::float8,
	(current -> 'growth' ->> 'heightCm')::float8
];
