-- Trigram operator classes for the listing search index of the next migration (as plants, ADR 022). drizzle-kit does
-- not model extensions, hence a custom migration; pg_trgm is trusted, so the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
