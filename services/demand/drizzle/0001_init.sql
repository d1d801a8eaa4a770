CREATE SCHEMA "demand";
--> statement-breakpoint
CREATE TABLE "demand"."demand_history" (
	"crop" text NOT NULL,
	"region_key" text NOT NULL,
	"week_start" text NOT NULL,
	"demand_kg" double precision NOT NULL,
	"signal_id" text NOT NULL,
	CONSTRAINT "demand_history_crop_region_key_week_start_pk" PRIMARY KEY("crop","region_key","week_start")
);
--> statement-breakpoint
CREATE TABLE "demand"."listings" (
	"id" text PRIMARY KEY NOT NULL,
	"seller_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"crop" text,
	"plant_id" text,
	"lineage" jsonb,
	"price" integer NOT NULL,
	"currency" text NOT NULL,
	"quantity" integer NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"city" text,
	"country" text,
	"privacy_level" text NOT NULL,
	"image_file_ids" jsonb NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"geo_band" integer GENERATED ALWAYS AS (floor(latitude * 10)::integer) STORED,
	"search_text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand"."matches" (
	"id" text PRIMARY KEY NOT NULL,
	"supply_id" text NOT NULL,
	"grower_id" text NOT NULL,
	"consumer_id" text NOT NULL,
	"crop" text NOT NULL,
	"quantity_kg" double precision NOT NULL,
	"distance_km" double precision NOT NULL,
	"price" integer NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand"."offers" (
	"id" text PRIMARY KEY NOT NULL,
	"listing_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"price" integer NOT NULL,
	"counter_price" integer,
	"currency" text NOT NULL,
	"message" text NOT NULL,
	"status" text NOT NULL,
	"rating" integer,
	"review" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand"."outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "demand"."outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"headers" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand"."preferences" (
	"id" text PRIMARY KEY NOT NULL,
	"consumer_id" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"city" text,
	"country" text,
	"radius_km" double precision NOT NULL,
	"household_size" integer NOT NULL,
	"items" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "preferences_consumer_id_unique" UNIQUE("consumer_id")
);
--> statement-breakpoint
CREATE TABLE "demand"."signals" (
	"id" text PRIMARY KEY NOT NULL,
	"requested_by" text NOT NULL,
	"region_key" text,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand"."supplies" (
	"id" text PRIMARY KEY NOT NULL,
	"grower_id" text NOT NULL,
	"crop" text NOT NULL,
	"quantity" double precision NOT NULL,
	"unit" text NOT NULL,
	"quantity_kg" double precision NOT NULL,
	"matched_kg" double precision DEFAULT 0 NOT NULL,
	"window_from" text NOT NULL,
	"window_to" text NOT NULL,
	"price" integer NOT NULL,
	"currency" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"city" text,
	"country" text,
	"organic" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demand"."wishlist" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"q" text,
	"category" text,
	"crop" text,
	"max_price" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "listings_seller_idx" ON "demand"."listings" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "listings_status_idx" ON "demand"."listings" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "listings_geo_idx" ON "demand"."listings" USING btree ("geo_band","longitude","latitude") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "listings_search_idx" ON "demand"."listings" USING gin ("search_text" gin_trgm_ops) WHERE status = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "matches_pair_idx" ON "demand"."matches" USING btree ("supply_id","consumer_id");--> statement-breakpoint
CREATE INDEX "offers_listing_idx" ON "demand"."offers" USING btree ("listing_id","created_at");--> statement-breakpoint
CREATE INDEX "offers_seller_idx" ON "demand"."offers" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "demand"."outbox" USING btree ("seq") WHERE "published_at" is null;--> statement-breakpoint
CREATE INDEX "preferences_lat_idx" ON "demand"."preferences" USING btree ("latitude","longitude");--> statement-breakpoint
CREATE INDEX "supplies_grower_idx" ON "demand"."supplies" USING btree ("grower_id");--> statement-breakpoint
CREATE INDEX "supplies_crop_idx" ON "demand"."supplies" USING btree ("crop","window_from");--> statement-breakpoint
CREATE INDEX "wishlist_user_idx" ON "demand"."wishlist" USING btree ("user_id","created_at");