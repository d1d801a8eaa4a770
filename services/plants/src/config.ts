import { withBase } from '@rootline/host';
import { StorageConfigProperties } from '@rootline/storage';
import { Type } from '@sinclair/typebox';

/** The settings of plants: the shared base settings and its own. */
export const PlantsConfig = withBase({
  // CSV imports are read from the storage the gateway streamed them into (the same settings in both).
  ...StorageConfigProperties,
  LINEAGE_AGENT_INTERVAL_SECONDS: Type.Number({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description: 'Time between two scans of the lineage agent while it runs',
  }),
  LINEAGE_AGENT_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 5000,
    description: 'How often each replica checks whether a scan is due',
  }),
  GEOCODER_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'Base URL of a Nominatim-compatible geocoder for GET /api/geocode (none: the bundled gazetteer only)',
    }),
  ),
  GEOCODER_USER_AGENT: Type.String({
    minLength: 1,
    default: 'Rootline plant tracing (self-hosted)',
    description: 'User-Agent naming this installation to the geocoder, as its usage policy asks',
  }),
  GEOCODER_EMAIL: Type.Optional(
    Type.String({ minLength: 3, description: 'Contact address sent to the geocoder (`email`), for heavy use' }),
  ),
  GEOCODER_MIN_INTERVAL_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 1000,
    description: 'Least time between two geocoder requests of a process (the public service allows one a second)',
  }),
  SEARCH_CACHE_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 2000,
    description:
      'How long a search answer is reused for the same query, fields and page (0: every search is computed); keep it below READ_YOUR_WRITES_MS',
  }),
  SEARCH_INDEX_POLL_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 1000,
    description:
      'How often each plants process reads the search texts changed since its last look into its in-memory search index (0: no index, every search is answered by PostgreSQL)',
  }),
});
