import { outboxTable } from '@rootline/db';
import { GEO_BANDS_PER_DEGREE } from '@rootline/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const demandSchema = pgSchema('demand');

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** One row per consumer: their latest preferences (items as JSON, read whole). */
export const preferences = demandSchema.table(
  'preferences',
  {
    id: text('id').primaryKey(),
    consumerId: text('consumer_id').notNull().unique(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    city: text('city'),
    country: text('country'),
    radiusKm: doublePrecision('radius_km').notNull(),
    householdSize: integer('household_size').notNull(),
    items: jsonb('items').notNull(),
    updatedAt: at('updated_at').notNull(),
    /**
     * Since when the household counts in aggregates: its first save, and again each time it moves to another grid
     * cell (domain/privacy.ts, HOUSEHOLD_MIN_AGE_DAYS).
     */
    countedFrom: at('counted_from').notNull(),
    /** Monday (`YYYY-MM-DD`) of the publication week in which `items` were last changed. */
    itemsWeek: text('items_week').notNull(),
    /** The items in effect at the start of `itemsWeek` (null: none): aggregates of that week read these. */
    priorItems: jsonb('prior_items'),
  },
  (t) => [index('preferences_lat_idx').on(t.latitude, t.longitude)],
);

export const signals = demandSchema.table('signals', {
  id: text('id').primaryKey(),
  requestedBy: text('requested_by').notNull(),
  regionKey: text('region_key'),
  result: jsonb('result').notNull(),
  createdAt: at('created_at').notNull(),
});

/** Weekly demand per crop and region as signals observed it: the history forecasts are made from. */
export const demandHistory = demandSchema.table(
  'demand_history',
  {
    crop: text('crop').notNull(),
    regionKey: text('region_key').notNull(),
    weekStart: text('week_start').notNull(),
    demandKg: doublePrecision('demand_kg').notNull(),
    signalId: text('signal_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.crop, t.regionKey, t.weekStart] })],
);

export const supplies = demandSchema.table(
  'supplies',
  {
    id: text('id').primaryKey(),
    growerId: text('grower_id').notNull(),
    crop: text('crop').notNull(),
    quantity: doublePrecision('quantity').notNull(),
    unit: text('unit').notNull(),
    quantityKg: doublePrecision('quantity_kg').notNull(),
    matchedKg: doublePrecision('matched_kg').notNull().default(0),
    windowFrom: text('window_from').notNull(),
    windowTo: text('window_to').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    city: text('city'),
    country: text('country'),
    organic: boolean('organic').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('supplies_grower_idx').on(t.growerId), index('supplies_crop_idx').on(t.crop, t.windowFrom)],
);

export const matches = demandSchema.table(
  'matches',
  {
    id: text('id').primaryKey(),
    supplyId: text('supply_id').notNull(),
    growerId: text('grower_id').notNull(),
    consumerId: text('consumer_id').notNull(),
    crop: text('crop').notNull(),
    quantityKg: doublePrecision('quantity_kg').notNull(),
    distanceKm: doublePrecision('distance_km').notNull(),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('matches_pair_idx').on(t.supplyId, t.consumerId)],
);

/** Each run of matching by a grower (refused ones too): what the per-day limit of probes counts. */
export const matchRuns = demandSchema.table(
  'match_runs',
  {
    id: text('id').primaryKey(),
    growerId: text('grower_id').notNull(),
    /** The crop asked for; null when the run covered every crop. */
    crop: text('crop'),
    requestedKm: doublePrecision('requested_km').notNull(),
    appliedKm: doublePrecision('applied_km').notNull(),
    refused: boolean('refused').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('match_runs_grower_idx').on(t.growerId, t.createdAt)],
);

export const listings = demandSchema.table(
  'listings',
  {
    id: text('id').primaryKey(),
    sellerId: text('seller_id').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    crop: text('crop'),
    plantId: text('plant_id'),
    lineage: jsonb('lineage'),
    price: integer('price').notNull(),
    currency: text('currency').notNull(),
    quantity: integer('quantity').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    city: text('city'),
    country: text('country'),
    privacyLevel: text('privacy_level').notNull(),
    imageFileIds: jsonb('image_file_ids').notNull(),
    status: text('status').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    /** Latitude band of the distance search (as plants' nearby index, ADR 008); null when hidden. */
    geoBand: integer('geo_band').generatedAlwaysAs(sql.raw(`floor(latitude * ${GEO_BANDS_PER_DEGREE})::integer`)),
    /** Title and description, lower case without accents (domain/search.ts), for the trigram index. */
    searchText: text('search_text').notNull(),
  },
  (t) => [
    index('listings_seller_idx').on(t.sellerId, t.createdAt),
    index('listings_status_idx').on(t.status, t.createdAt),
    // Distance search over active listings only: a partial index keeps drafts and sold ones out of it.
    index('listings_geo_idx').on(t.geoBand, t.longitude, t.latitude).where(sql`status = 'active'`),
    index('listings_search_idx').using('gin', t.searchText.op('gin_trgm_ops')).where(sql`status = 'active'`),
  ],
);

export const offers = demandSchema.table(
  'offers',
  {
    id: text('id').primaryKey(),
    listingId: text('listing_id').notNull(),
    buyerId: text('buyer_id').notNull(),
    sellerId: text('seller_id').notNull(),
    quantity: integer('quantity').notNull(),
    price: integer('price').notNull(),
    counterPrice: integer('counter_price'),
    currency: text('currency').notNull(),
    message: text('message').notNull(),
    status: text('status').notNull(),
    /** Why a rejected offer was rejected (contract's OFFER_REJECTION_REASONS); null otherwise. */
    rejectionReason: text('rejection_reason'),
    rating: integer('rating'),
    review: text('review'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('offers_listing_idx').on(t.listingId, t.createdAt),
    index('offers_seller_idx').on(t.sellerId),
    index('offers_buyer_idx').on(t.buyerId, t.createdAt),
  ],
);

export const wishlist = demandSchema.table(
  'wishlist',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    q: text('q'),
    category: text('category'),
    crop: text('crop'),
    maxPrice: integer('max_price'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('wishlist_user_idx').on(t.userId, t.createdAt)],
);

export const outbox = outboxTable(demandSchema);
