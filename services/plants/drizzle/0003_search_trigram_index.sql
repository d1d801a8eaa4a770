CREATE INDEX "plants_search_species_idx" ON "plants"."plants" USING gin ("search_species" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "plants_search_location_idx" ON "plants"."plants" USING gin ("search_location" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "plants_search_owner_idx" ON "plants"."plants" USING gin ("search_owner" gin_trgm_ops);