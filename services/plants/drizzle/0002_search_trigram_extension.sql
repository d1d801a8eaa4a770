-- Trigram operator classes for the search indexes of the next migration (docs/adr/022-search-trigram-index.md).
-- drizzle-kit does not model extensions, hence a custom migration. pg_trgm is a trusted extension: the database
-- owner can create it without superuser rights. PGlite must load it at construction (packages/db/src/open.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
