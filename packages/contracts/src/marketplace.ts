import { type Static, Type } from '@sinclair/typebox';
import { Location, PrefixedId, Text, Timestamp } from './common.js';
import { Defaulted, defineEvent, defineSubject, Named } from './define.js';
import { CROPS, CropSchema } from './demand.js';
import { PageQuery, Pagination } from './envelope.js';
import { Photo } from './photos.js';
import { PlantId, PRIVACY_LEVELS, PrivacyLevelSchema, StringEnum } from './plants.js';

export const ListingId = PrefixedId('lst', 'Listing identifier');
export const OfferId = PrefixedId('ofr', 'Offer identifier');
export const WishlistItemId = PrefixedId('wsh', 'Wishlist item identifier');
const UserId = Text({
  minLength: 1,
  maxLength: 120,
  description: 'Account identifier',
  examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
});

export const LISTING_CATEGORIES = ['seeds', 'seedlings', 'cuttings', 'plants', 'produce'] as const;
export type ListingCategory = (typeof LISTING_CATEGORIES)[number];
export const ListingCategorySchema = StringEnum(LISTING_CATEGORIES, { description: 'What is sold' });

/**
 * Listing states and the moves between them (docs/marketplace.md): draft→active (publish), draft→cancelled,
 * active→draft (unpublish), active→cancelled, active→sold (the last unit sold by an accepted offer). sold and
 * cancelled are final.
 */
export const LISTING_STATUSES = ['draft', 'active', 'sold', 'cancelled'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
export const ListingStatusSchema = StringEnum(LISTING_STATUSES, {
  description: 'draft (seller only), active (public, open to offers), sold (nothing left), cancelled',
});

export const OFFER_STATUSES = ['pending', 'countered', 'accepted', 'rejected', 'withdrawn'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
export const OfferStatusSchema = StringEnum(OFFER_STATUSES, {
  description:
    'pending (awaits the seller), countered (awaits the buyer), accepted, rejected (by the other party, or ' +
    'made impossible by a sale), withdrawn (by the buyer)',
});

/**
 * Why an offer was rejected, one per way the state machine rejects (docs/marketplace.md): the seller declined a
 * pending offer, the buyer declined the seller's counter, another buyer's accepted offer left fewer units than it
 * asks for, or the listing left active (cancelled, or paused back to draft).
 */
export const OFFER_REJECTION_REASONS = [
  'declined',
  'counter-declined',
  'sold-out',
  'listing-cancelled',
  'listing-unpublished',
] as const;
export type OfferRejectionReason = (typeof OFFER_REJECTION_REASONS)[number];

/** Prices: integer minor units (cents) of an ISO 4217 currency. */
const Price = Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Price per unit in minor units' });

/** A price range filter of listings: both ends inclusive. */
const PriceRange = {
  minPrice: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100_000_000,
      description:
        'Lowest price per unit in minor units, inclusive; with `maxPrice`, at most `maxPrice` (else nothing matches)',
    }),
  ),
  maxPrice: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100_000_000,
      description: 'Highest price per unit in minor units, inclusive; with `minPrice`, at least `minPrice`',
    }),
  ),
};
export const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', examples: ['EUR'] });
const Quantity = Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Units' });
const FileId = Type.String({ pattern: '^fil_[A-Za-z0-9]{10,40}$', description: 'An uploaded image file id' });

const listingFields = {
  title: Text({ minLength: 1, maxLength: 120, examples: ['San Marzano tomato seedlings'] }),
  description: Defaulted(Text({ maxLength: 4000, default: '' })),
  category: ListingCategorySchema,
  crop: Type.Optional(StringEnum(CROPS, { description: 'The crop, for produce and young plants (links to demand)' })),
  plantId: Type.Optional(PlantId),
  price: Price,
  currency: Currency,
  quantity: Quantity,
  location: Location,
  privacyLevel: Defaulted(
    StringEnum(PRIVACY_LEVELS, {
      default: 'city',
      description: 'Applied to the location before it is stored, as for plants. Default: city.',
    }),
  ),
  imageFileIds: Defaulted(Type.Array(FileId, { maxItems: 10, default: [] })),
};

export const ListingInput = Type.Object(
  {
    ...listingFields,
    status: Defaulted(
      StringEnum(['draft', 'active'] as const, { default: 'active', description: 'Start as draft or active' }),
    ),
  },
  { additionalProperties: false },
);
export type ListingInput = Static<typeof ListingInput>;

/** Fields of an update; each optional, only draft and active listings can be changed. */
export const ListingUpdateInput = Type.Object(
  {
    title: Type.Optional(listingFields.title),
    description: Type.Optional(Text({ maxLength: 4000 })),
    price: Type.Optional(Price),
    quantity: Type.Optional(Quantity),
    imageFileIds: Type.Optional(Type.Array(FileId, { maxItems: 10 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

const LineageSummary = Type.Object({
  plantId: PlantId,
  commonName: Type.String(),
  generation: Type.Integer({ minimum: 0 }),
  ancestors: Type.Array(
    Type.Object({
      id: PlantId,
      commonName: Type.String(),
      generation: Type.Integer(),
      propagationType: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'Parent first, up to the root (at most 20)' },
  ),
});

export const Listing = Named(
  'Listing',
  Type.Object({
    id: ListingId,
    sellerId: Type.String(),
    title: Type.String(),
    description: Type.String(),
    category: ListingCategorySchema,
    crop: Type.Union([Type.String(), Type.Null()]),
    plantId: Type.Union([PlantId, Type.Null()]),
    lineage: Type.Union([LineageSummary, Type.Null()], { description: 'From the plants service, when plantId is set' }),
    price: Type.Integer(),
    currency: Type.String(),
    quantity: Type.Integer({ description: 'Units still available' }),
    location: Type.Union([Location, Type.Null()], { description: 'After the privacy level; null when hidden' }),
    privacyLevel: PrivacyLevelSchema,
    imageFileIds: Type.Array(Type.String()),
    coverPhoto: Type.Optional(
      Type.Union([Photo, Type.Null()], {
        description:
          'The first image, with thumbnail URLs valid 15 minutes (null without one): in the answers of reads (a ' +
          'listing, the lists and the search), not in those of writes',
      }),
    ),
    photos: Type.Optional(
      Type.Array(Photo, {
        description:
          'The listing’s images in order, with thumbnail URLs valid 15 minutes: in the answer of ' +
          '`GET /api/marketplace/listings/{listingId}` (the gallery); lists answer `coverPhoto` only',
      }),
    ),
    status: ListingStatusSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);
export type Listing = Static<typeof Listing>;

export const LISTING_SORTS = ['newest', 'price-asc', 'price-desc'] as const;

export const ListingListQuery = Type.Object({
  status: Type.Optional(ListingStatusSchema),
  category: Type.Optional(ListingCategorySchema),
  sellerId: Type.Optional(UserId),
  ...PriceRange,
  sort: Defaulted(StringEnum(LISTING_SORTS, { default: 'newest', description: 'newest, price-asc or price-desc' })),
  ...PageQuery.properties,
});

export const SEARCH_RADIUS = { defaultKm: 50, maxKm: 500 } as const;

export const ListingSearchQuery = Type.Object({
  q: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 200,
      format: 'letter-or-digit',
      description:
        'Words to find in title and description, with at least one letter or digit (format `letter-or-digit`); ' +
        'case, accents and punctuation ignored',
    }),
  ),
  category: Type.Optional(ListingCategorySchema),
  ...PriceRange,
  lat: Type.Optional(
    Type.Number({
      minimum: -90,
      maximum: 90,
      description: 'Centre latitude; given with `lon` (one without the other is 400 VALIDATION_ERROR)',
    }),
  ),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Centre longitude; given with `lat`' })),
  radius: Defaulted(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: SEARCH_RADIUS.maxKm,
      default: SEARCH_RADIUS.defaultKm,
      description: `Kilometres around lat/lon (default ${SEARCH_RADIUS.defaultKm}, at most ${SEARCH_RADIUS.maxKm})`,
    }),
  ),
  ...PageQuery.properties,
});
export type ListingSearchQuery = Static<typeof ListingSearchQuery>;

export const ListingHit = Named(
  'ListingHit',
  Type.Object({
    ...Listing.properties,
    distanceKm: Type.Union([Type.Number(), Type.Null()], { description: 'From lat/lon when given' }),
  }),
);

export const StatusChangeInput = Type.Object(
  { status: ListingStatusSchema },
  { additionalProperties: false, examples: [{ status: 'active' }] },
);

export const Offer = Named(
  'Offer',
  Type.Object({
    id: OfferId,
    listingId: ListingId,
    buyerId: Type.String(),
    sellerId: Type.String(),
    quantity: Type.Integer(),
    price: Type.Integer({ description: 'Offered price per unit, minor units' }),
    counterPrice: Type.Union([Type.Integer(), Type.Null()], { description: "The seller's counter price per unit" }),
    currency: Type.String(),
    message: Type.String(),
    status: OfferStatusSchema,
    rejectionReason: Type.Union(
      [
        StringEnum(OFFER_REJECTION_REASONS, {
          description:
            'declined (by the seller), counter-declined (the buyer declined the counter), sold-out (another ' +
            'buyer took the units it asks for), listing-cancelled, listing-unpublished (the seller paused it)',
        }),
        Type.Null(),
      ],
      { description: 'Why it was rejected; null unless rejected, and for rejections older than the reasons' },
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);
export type Offer = Static<typeof Offer>;

/** An offer as its buyer lists it: with what they need to know of the listing it was made on. */
export const BuyerOffer = Named(
  'BuyerOffer',
  Type.Object({
    ...Offer.properties,
    listing: Type.Object(
      {
        id: ListingId,
        title: Type.String(),
        price: Type.Integer({ description: 'Price per unit asked now, minor units' }),
        currency: Type.String(),
        quantity: Type.Integer({ description: 'Units still available' }),
        status: ListingStatusSchema,
      },
      { description: 'The listing as it is now' },
    ),
  }),
);
export type BuyerOffer = Static<typeof BuyerOffer>;

export const BuyerOfferQuery = Type.Object({
  buyerId: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 120,
      description: 'Whose offers: your own account id (the default); an ADMIN may name anyone',
      examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1ME'],
    }),
  ),
  status: Type.Optional(OfferStatusSchema),
  ...PageQuery.properties,
});

export const OfferInput = Type.Object(
  {
    quantity: Quantity,
    price: Price,
    message: Defaulted(Text({ maxLength: 1000, default: '' })),
  },
  { additionalProperties: false },
);

export const CounterInput = Type.Object({ price: Price }, { additionalProperties: false });

export const ReviewInput = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5, description: '1 (poor) to 5 (excellent)' }),
    comment: Defaulted(Text({ maxLength: 1000, default: '' })),
  },
  { additionalProperties: false },
);

export const SellerProfile = Named(
  'SellerProfile',
  Type.Object({
    sellerId: Type.String(),
    activeListings: Type.Integer({ minimum: 0 }),
    completedSales: Type.Integer({ minimum: 0, description: 'Accepted offers' }),
    unitsSold: Type.Integer({ minimum: 0 }),
    rating: Type.Object({
      average: Type.Union([Type.Number(), Type.Null()], { description: 'Mean of buyer reviews, null without any' }),
      count: Type.Integer({ minimum: 0 }),
    }),
    categories: Type.Array(ListingCategorySchema, { description: 'Categories of the active listings' }),
    memberSince: Type.Union([Timestamp, Type.Null()], { description: 'First listing' }),
  }),
);

export const WishlistInput = Type.Object(
  {
    q: Type.Optional(Text({ minLength: 1, maxLength: 200, description: 'Words wanted in a listing' })),
    category: Type.Optional(ListingCategorySchema),
    crop: Type.Optional(CropSchema),
    maxPrice: Type.Optional(Price),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const WishlistItem = Named(
  'WishlistItem',
  Type.Object({
    id: WishlistItemId,
    userId: Type.String(),
    q: Type.Union([Type.String(), Type.Null()]),
    category: Type.Union([ListingCategorySchema, Type.Null()]),
    crop: Type.Union([Type.String(), Type.Null()]),
    maxPrice: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Timestamp,
  }),
);

export const ListingRecommendationQuery = Type.Object({
  lat: Type.Optional(
    Type.Number({
      minimum: -90,
      maximum: 90,
      description:
        'Latitude to recommend around, used only with `lon`; without both, the location of your demand preferences',
    }),
  ),
  lon: Type.Optional(
    Type.Number({ minimum: -180, maximum: 180, description: 'Longitude to recommend around, used only with `lat`' }),
  ),
  limit: Defaulted(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'At most 50' })),
});

/**
 * Why a listing is recommended, as a stable code with the values its sentence uses: `reasons[i]` in English is
 * `reasonCodes[i]` in words. An app words each code in its reader's language (docs/languages.md, ADR 255).
 */
export const ListingReason = Named(
  'ListingReason',
  Type.Union(
    [
      Type.Object(
        { code: Type.Literal('wishlist'), params: Type.Object({}) },
        { description: 'An item of your wishlist matches it' },
      ),
      Type.Object(
        { code: Type.Literal('preference'), params: Type.Object({ crop: CropSchema }) },
        { description: 'Its crop is in your demand preferences, at a price you accept' },
      ),
      Type.Object(
        {
          code: Type.Literal('distance'),
          params: Type.Object({ km: Type.Number({ minimum: 0, description: 'Distance, km (one decimal)' }) }),
        },
        { description: 'How far away it is' },
      ),
    ],
    {
      examples: [
        { code: 'wishlist', params: {} },
        { code: 'distance', params: { km: 3.2 } },
      ],
    },
  ),
);
export type ListingReason = Static<typeof ListingReason>;
/** Every code a listing recommendation's reasons may carry, read from the schema. */
export const LISTING_REASON_CODES = ListingReason.anyOf.map(
  (s) => s.properties.code.const,
) as readonly ListingReason['code'][];

export const ListingRecommendation = Type.Object({
  listing: ListingHit,
  score: Type.Number(),
  reasons: Type.Array(Type.String(), { description: 'Why, in English: the sentences of `reasonCodes`' }),
  reasonCodes: Type.Array(ListingReason, {
    description: 'The reasons as codes with their values, in the same order',
  }),
});

const page = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), pagination: Pagination });
const ById = Type.Object({ listingId: ListingId });
const ByOffer = Type.Object({ offerId: OfferId });

export const listingCreate = defineSubject({
  subject: 'demand.listing.create',
  request: ListingInput,
  reply: Listing,
  summary: 'Create a listing',
});
export const listingGet = defineSubject({
  subject: 'demand.listing.get',
  request: ById,
  reply: Listing,
  summary: 'Read a listing',
});
/**
 * Whether a published listing (active, sold or cancelled: not a draft) shows a file among its `imageFileIds`, asked
 * by the media service when someone other than the file's owner reads it (docs/media.md): the images of such a
 * listing are read by every signed-in user. `listingId` names one such listing, null when there is none.
 */
export const listingShowingImage = defineSubject({
  subject: 'demand.listing.showing-image',
  request: Type.Object({ fileId: FileId }),
  reply: Type.Object({ listingId: Type.Union([ListingId, Type.Null()]) }),
  summary: 'A published listing that shows a file among its images, if any',
});
export const listingUpdate = defineSubject({
  subject: 'demand.listing.update',
  request: Type.Object({ ...ById.properties, ...ListingUpdateInput.properties }, { additionalProperties: false }),
  reply: Listing,
  summary: 'Change a listing',
});
export const listingSetStatus = defineSubject({
  subject: 'demand.listing.set-status',
  request: Type.Object({ ...ById.properties, ...StatusChangeInput.properties }),
  reply: Listing,
  summary: 'Move a listing to another state',
});
export const listingCancel = defineSubject({
  subject: 'demand.listing.cancel',
  request: ById,
  reply: Listing,
  summary: 'Cancel a listing',
});
export const listingList = defineSubject({
  subject: 'demand.listing.list',
  request: ListingListQuery,
  reply: page(Listing),
  summary: 'Listings with filters',
});
export const listingSearch = defineSubject({
  subject: 'demand.listing.search',
  request: ListingSearchQuery,
  reply: page(ListingHit),
  summary: 'Search active listings by text, category, price and distance',
});
export const listingRecommend = defineSubject({
  subject: 'demand.listing.recommend',
  request: ListingRecommendationQuery,
  reply: Type.Array(ListingRecommendation),
  summary: 'Listings recommended to the caller',
});
export const offerMake = defineSubject({
  subject: 'demand.offer.make',
  request: Type.Object({ ...ById.properties, ...OfferInput.properties }),
  reply: Offer,
  summary: 'Make an offer on a listing',
});
export const offerList = defineSubject({
  subject: 'demand.offer.list',
  request: Type.Object({ ...ById.properties, ...PageQuery.properties }),
  reply: page(Offer),
  summary: 'Offers on a listing (the seller sees all, a buyer their own)',
});
export const offerListByBuyer = defineSubject({
  subject: 'demand.offer.list-by-buyer',
  request: BuyerOfferQuery,
  reply: page(BuyerOffer),
  summary: "The caller's offers as a buyer, newest first",
});
export const offerCounter = defineSubject({
  subject: 'demand.offer.counter',
  request: Type.Object({ ...ByOffer.properties, ...CounterInput.properties }),
  reply: Offer,
  summary: 'Counter an offer (seller)',
});
export const offerAccept = defineSubject({
  subject: 'demand.offer.accept',
  request: ByOffer,
  reply: Offer,
  summary: 'Accept an offer (seller) or a counter (buyer)',
});
export const offerReject = defineSubject({
  subject: 'demand.offer.reject',
  request: ByOffer,
  reply: Offer,
  summary: 'Reject an offer (seller) or a counter (buyer)',
});
export const offerWithdraw = defineSubject({
  subject: 'demand.offer.withdraw',
  request: ByOffer,
  reply: Offer,
  summary: 'Withdraw an offer (buyer)',
});
export const offerReview = defineSubject({
  subject: 'demand.offer.review',
  request: Type.Object({ ...ByOffer.properties, ...ReviewInput.properties }),
  reply: Type.Object({ offerId: OfferId, rating: Type.Integer(), comment: Type.String() }),
  summary: 'Review the seller of an accepted offer (buyer)',
});
export const sellerProfileGet = defineSubject({
  subject: 'demand.seller.get',
  request: Type.Object({ sellerId: UserId }),
  reply: SellerProfile,
  summary: 'Public profile of a seller',
});
export const wishlistAdd = defineSubject({
  subject: 'demand.wishlist.add',
  request: WishlistInput,
  reply: WishlistItem,
  summary: "Add to the caller's wishlist",
});
export const wishlistList = defineSubject({
  subject: 'demand.wishlist.list',
  request: PageQuery,
  reply: page(WishlistItem),
  summary: "The caller's wishlist",
});
export const wishlistRemove = defineSubject({
  subject: 'demand.wishlist.remove',
  request: Type.Object({ itemId: WishlistItemId }),
  reply: Type.Object({ id: WishlistItemId, removed: Type.Boolean() }),
  summary: 'Remove a wishlist item',
});

const OfferEvent = Type.Object({
  offerId: Type.String(),
  listingId: Type.String(),
  buyerId: Type.String(),
  sellerId: Type.String(),
  quantity: Type.Integer(),
  price: Type.Integer(),
  currency: Type.String(),
});

export const listingPublished = defineEvent({
  subject: 'evt.demand.listing.published',
  kind: 'listing.published',
  payload: Type.Object({
    listingId: Type.String(),
    sellerId: Type.String(),
    title: Type.String(),
    category: Type.String(),
    price: Type.Integer(),
    currency: Type.String(),
  }),
});
export const listingSold = defineEvent({
  subject: 'evt.demand.listing.sold',
  kind: 'listing.sold',
  payload: Type.Object({ listingId: Type.String(), sellerId: Type.String(), title: Type.String() }),
});
export const listingCancelled = defineEvent({
  subject: 'evt.demand.listing.cancelled',
  kind: 'listing.cancelled',
  payload: Type.Object({ listingId: Type.String(), sellerId: Type.String() }),
});
/**
 * Offers are private to their parties (docs/marketplace.md): the public form of an offer event (event history,
 * stream, webhooks) says that an offer was made, countered, accepted, rejected or withdrawn on a listing, with no
 * buyer, quantity or price. The bus and the audit log (ADMIN only) carry the whole payload.
 */
const OFFER_PUBLIC_FIELDS = ['offerId', 'listingId', 'sellerId'] as const;

export const offerMade = defineEvent({
  subject: 'evt.demand.offer.made',
  kind: 'offer.made',
  payload: OfferEvent,
  publicFields: OFFER_PUBLIC_FIELDS,
});
export const offerCountered = defineEvent({
  subject: 'evt.demand.offer.countered',
  kind: 'offer.countered',
  payload: Type.Object({ ...OfferEvent.properties, counterPrice: Type.Integer() }),
  publicFields: OFFER_PUBLIC_FIELDS,
});
export const offerAccepted = defineEvent({
  subject: 'evt.demand.offer.accepted',
  kind: 'offer.accepted',
  payload: OfferEvent,
  publicFields: OFFER_PUBLIC_FIELDS,
});
export const offerRejected = defineEvent({
  subject: 'evt.demand.offer.rejected',
  kind: 'offer.rejected',
  payload: Type.Object({
    ...OfferEvent.properties,
    reason: StringEnum(['rejected', 'sold-out'] as const, {
      description: 'rejected by the other party, or made impossible by a sale',
    }),
  }),
  publicFields: [...OFFER_PUBLIC_FIELDS, 'reason'],
});
export const offerWithdrawn = defineEvent({
  subject: 'evt.demand.offer.withdrawn',
  kind: 'offer.withdrawn',
  payload: OfferEvent,
  publicFields: OFFER_PUBLIC_FIELDS,
});
