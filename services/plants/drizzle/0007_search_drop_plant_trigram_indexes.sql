-- Search no longer reads the trigram indexes of the plants' own texts (it finds the matching texts in search_texts and
-- their plants in the prefix indexes, migration 0006): they only cost every write and about 100 MB on a million plants.
-- The estimate past the cap comes from the columns' statistics, which need no index.
DROP INDEX "plants"."plants_search_species_idx";--> statement-breakpoint
DROP INDEX "plants"."plants_search_location_idx";--> statement-breakpoint
DROP INDEX "plants"."plants_search_owner_idx";