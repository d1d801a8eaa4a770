CREATE TABLE "plants"."anonymous_owners" (
	"anonymous_id" text PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"public_key" text NOT NULL,
	"pseudonym" text,
	"encryption_public_key" text,
	"encrypted_contact" jsonb NOT NULL,
	CONSTRAINT "anonymous_owners_wallet_address_unique" UNIQUE("wallet_address")
);
--> statement-breakpoint
CREATE TABLE "plants"."lineage_agent" (
	"agent" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"runs" integer DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_run_ms" integer,
	"anomalies_found" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plants"."lineage_anomalies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plants"."lineage_anomalies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"plant_id" text NOT NULL,
	"parent_id" text,
	"reason" text NOT NULL,
	"detected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plants"."plants" ALTER COLUMN "latitude" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "plants"."plants" ALTER COLUMN "longitude" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "privacy_level" text DEFAULT 'exact' NOT NULL;--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "wallet_address" text;--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "propagation_type" text;--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "geo_band" integer GENERATED ALWAYS AS (floor(latitude * 10)::integer) STORED;--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "search_species" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "search_location" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "search_owner" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "lineage_anomalies_kind_idx" ON "plants"."lineage_anomalies" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "plants_geo_idx" ON "plants"."plants" USING btree ("geo_band","longitude","latitude","id");--> statement-breakpoint
CREATE INDEX "plants_registered_at_idx" ON "plants"."plants" USING btree ("registered_at");--> statement-breakpoint
-- Plants stored before search existed: lower case only (new plants get the full normalisation, accents removed, in code).
UPDATE "plants"."plants" SET "search_species" = lower(trim("common_name" || ' ' || coalesce("scientific_name", ''))), "search_location" = lower(trim(coalesce("city", '') || ' ' || coalesce("country", ''))), "search_owner" = lower("owner_name");
