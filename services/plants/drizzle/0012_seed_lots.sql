CREATE TABLE "plants"."germination_tests" (
	"id" text PRIMARY KEY NOT NULL,
	"seed_lot_id" text NOT NULL,
	"tested_on" text NOT NULL,
	"seeds_sown" integer NOT NULL,
	"germinated" integer NOT NULL,
	"method" text NOT NULL,
	"notes" text,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plants"."seed_lot_quantity_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plants"."seed_lot_quantity_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"seed_lot_id" text NOT NULL,
	"reason" text NOT NULL,
	"amount" double precision NOT NULL,
	"delta" double precision NOT NULL,
	"unit" text NOT NULL,
	"note" text,
	"at" timestamp with time zone NOT NULL,
	"by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plants"."seed_lots" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"crop" text NOT NULL,
	"crop_key" text NOT NULL,
	"variety" text,
	"parent_plant_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"harvest_year" integer NOT NULL,
	"quantity_amount" double precision NOT NULL,
	"quantity_unit" text NOT NULL,
	"storage_place" text,
	"storage_temperature_c" double precision,
	"storage_humidity_pct" double precision,
	"storage_container" text,
	"notes" text,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"discarded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "plants"."plants" ADD COLUMN "seed_lot_id" text;--> statement-breakpoint
CREATE INDEX "germination_tests_lot_idx" ON "plants"."germination_tests" USING btree ("seed_lot_id","tested_on","id");--> statement-breakpoint
CREATE INDEX "seed_lot_quantity_changes_lot_idx" ON "plants"."seed_lot_quantity_changes" USING btree ("seed_lot_id","id");--> statement-breakpoint
CREATE INDEX "seed_lots_owner_idx" ON "plants"."seed_lots" USING btree ("owner_id","harvest_year","id");--> statement-breakpoint
CREATE INDEX "plants_seed_lot_idx" ON "plants"."plants" USING btree ("seed_lot_id");