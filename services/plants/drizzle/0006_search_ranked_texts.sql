-- Ranked search (docs/adr/158-search-ranked-from-distinct-texts.md). The indexes on plants take a few seconds each
-- on a million plants and are built with a plain CREATE INDEX, which holds writes to plants meanwhile: drizzle runs
-- each migration in a transaction, where CREATE INDEX CONCURRENTLY is refused.
CREATE TABLE "plants"."search_texts" (
	"field" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "search_texts_field_value_pk" PRIMARY KEY("field","value")
);
--> statement-breakpoint
CREATE INDEX "search_texts_value_idx" ON "plants"."search_texts" USING gin ("value" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_texts_prefix_idx" ON "plants"."search_texts" USING btree ("field","value" collate "C");--> statement-breakpoint
CREATE INDEX "search_texts_words_idx" ON "plants"."search_texts" USING gin (to_tsvector('simple', "value"));--> statement-breakpoint
CREATE INDEX "plants_search_species_prefix_idx" ON "plants"."plants" USING btree ("search_species" collate "C","id" collate "C");--> statement-breakpoint
CREATE INDEX "plants_search_location_prefix_idx" ON "plants"."plants" USING btree ("search_location" collate "C","id" collate "C");--> statement-breakpoint
CREATE INDEX "plants_search_owner_prefix_idx" ON "plants"."plants" USING btree ("search_owner" collate "C","id" collate "C");--> statement-breakpoint
-- The distinct texts follow every write of plants, whichever code writes them. Statement triggers with the new rows
-- as a table: one INSERT per statement, not per row; a trigger with a transition table takes one event only.
CREATE FUNCTION "plants"."remember_search_texts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "plants"."search_texts" ("field", "value")
  SELECT DISTINCT t.field, t.value
  FROM new_rows p
  CROSS JOIN LATERAL (VALUES ('species', p.search_species), ('location', p.search_location), ('owner', p.search_owner))
    AS t(field, value)
  WHERE t.value <> ''
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "plants_search_texts_on_insert" AFTER INSERT ON "plants"."plants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "plants"."remember_search_texts"();--> statement-breakpoint
CREATE TRIGGER "plants_search_texts_on_update" AFTER UPDATE ON "plants"."plants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "plants"."remember_search_texts"();--> statement-breakpoint
INSERT INTO "plants"."search_texts" ("field", "value")
SELECT DISTINCT t.field, t.value
FROM "plants"."plants" p
CROSS JOIN LATERAL (VALUES ('species', p.search_species), ('location', p.search_location), ('owner', p.search_owner))
  AS t(field, value)
WHERE t.value <> ''
ON CONFLICT DO NOTHING;
