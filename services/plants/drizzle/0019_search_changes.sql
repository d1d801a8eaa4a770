-- The in-memory search indexes' feed of changes (docs/adr/316-search-answered-from-an-in-memory-index.md). The
-- column is added without a value for the plants already stored (the index reads them all when it starts), so the
-- table is not rewritten; new rows get their transaction's id from the default, updates of a search text from the
-- trigger below.
ALTER TABLE "plants"."plants" ADD COLUMN "search_changed" xid8;--> statement-breakpoint
ALTER TABLE "plants"."plants" ALTER COLUMN "search_changed" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "plants_changed_search_idx" ON "plants"."plants" USING btree ("search_changed","id" collate "C") WHERE "plants"."plants"."search_changed" is not null;--> statement-breakpoint
CREATE FUNCTION "plants"."mark_search_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_changed := pg_current_xact_id();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "plants_search_changed_on_update" BEFORE UPDATE ON "plants"."plants" FOR EACH ROW
  WHEN (OLD.search_species IS DISTINCT FROM NEW.search_species OR OLD.search_location IS DISTINCT FROM NEW.search_location
    OR OLD.search_owner IS DISTINCT FROM NEW.search_owner)
  EXECUTE FUNCTION "plants"."mark_search_changed"();
