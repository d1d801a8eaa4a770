import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BuyerOffer,
  Listing,
  ListingHit,
  listingCancel,
  listingCreate,
  listingGet,
  listingList,
  listingRecommend,
  listingSearch,
  listingSetStatus,
  listingUpdate,
  Offer,
  offerAccept,
  offerCounter,
  offerList,
  offerListByBuyer,
  offerMake,
  offerReject,
  offerReview,
  offerWithdraw,
  PAGE_DEFAULTS,
  SEARCH_RADIUS,
  sellerProfileGet,
  WishlistItem,
  wishlistAdd,
  wishlistList,
  wishlistRemove,
} from '@rootline/contracts';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';

const TAGS = ['Marketplace'];
const READ = { permission: 'marketplace:read' } as const;
const WRITE = { permission: 'marketplace:write' } as const;
const CREATE = { permission: 'marketplace:write', idempotent: true } as const;
const PAGING = `\`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`;
const STATES =
  'States: `draft` (seen only by its seller), `active` (public, takes offers), `sold` (nothing left), `cancelled`. ' +
  'Moves: draft→active, draft→cancelled, active→draft, active→cancelled, and active→sold when an accepted offer ' +
  'takes the last unit. sold and cancelled are final; any other move is 409 CONFLICT with the reason. Leaving ' +
  'active rejects the open offers (`rejectionReason` `listing-cancelled` or `listing-unpublished`).';
const TURNS =
  'A pending offer awaits the seller (accept, reject or counter); a countered one awaits the buyer (accept or ' +
  'reject the counter; the seller may counter again); the buyer may withdraw an open offer. Acting out of turn ' +
  'is 403 FORBIDDEN, acting on a closed offer 409 CONFLICT. An ADMIN may act for either party.';
const OFFER_PATH = 'Offers are seen and handled only by their buyer and seller (anyone else: 404 NOT_FOUND).';

/** The marketplace under /api/marketplace: listings, search, offers, seller profiles, wishlists. */
export const marketplaceRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'POST',
    url: '/listings',
    summary: 'Create a listing',
    description:
      'The seller is the caller. `price` is per unit in integer minor units of `currency` (ISO 4217); `quantity` ' +
      'is the units for sale. The location is stored after `privacyLevel` (default city) as for plants. With ' +
      '`plantId`, the plant’s lineage (up to 20 ancestors) is asked of the plants service and shown on the listing ' +
      `(404 for an unknown plant). Starts \`active\` (emits \`listing.published\`) or \`draft\`. ${STATES}`,
    tags: TAGS,
    policy: {
      ...CREATE,
      object: [
        { rule: 'owner', field: 'plantId', record: 'plant' },
        { rule: 'owner', field: 'imageFileIds', record: 'file' },
      ],
    },
    subject: listingCreate,
    status: 201,
    errors: ['NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
    example: {
      title: 'San Marzano tomato seedlings',
      description: 'Organic, 10 cm, hardened off. Pick-up in Utrecht.',
      category: 'seedlings',
      crop: 'tomato',
      plantId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      price: 250,
      currency: 'EUR',
      quantity: 12,
      location: { latitude: 52.09, longitude: 5.12, city: 'Utrecht', country: 'NL' },
      privacyLevel: 'city',
      status: 'active',
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/listings',
    summary: 'List listings',
    description:
      'Filters: `status` (default active; with `sellerId` every status), `category`, `sellerId`, `minPrice`, ' +
      '`maxPrice`. Sort: `newest` (default), `price-asc`, `price-desc`. Drafts appear only to their seller (and ' +
      `ADMINs). Each listing carries \`coverPhoto\`, its first image as square WebP thumbnails (null without one). ${PAGING}`,
    tags: TAGS,
    policy: {
      public: true,
      identifiesCaller: true,
      object: { rule: 'none', why: 'published listings, and the caller’s own drafts' },
    },
    subject: listingList,
    page: { item: Listing },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/listings/search',
    summary: 'Search listings',
    description:
      'Active listings whose title or description contains every word of `q` (case, accents and punctuation ' +
      'ignored), of `category`, priced within `minPrice`–`maxPrice`, and with `lat`/`lon` within `radius` km ' +
      `(default ${SEARCH_RADIUS.defaultKm}, at most ${SEARCH_RADIUS.maxKm}; haversine to the stored location). ` +
      'Nearest first with a point (`distanceKm` set), newest first without. Served from a trigram index and a ' +
      `latitude-band index, both on active listings only. Each listing carries \`coverPhoto\`, its first image as ` +
      `square WebP thumbnails (null without one). ${PAGING}`,
    tags: TAGS,
    policy: { public: true, identifiesCaller: true, object: { rule: 'none', why: 'published listings only' } },
    subject: listingSearch,
    page: { item: ListingHit },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/listings/:listingId',
    summary: 'Read a listing',
    description:
      'A draft is 404 NOT_FOUND to anyone but its seller and ADMINs. With its gallery: `photos`, its images in ' +
      'order as square WebP thumbnails with URLs valid 15 minutes, and the first of them as `coverPhoto`.',
    tags: TAGS,
    policy: {
      public: true,
      identifiesCaller: true,
      object: {
        rule: 'public',
        field: 'listingId',
        record: 'listing',
        why: 'published; a draft, paused or cancelled listing only to its seller',
      },
    },
    subject: listingGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'PATCH',
    url: '/listings/:listingId',
    summary: 'Change a listing',
    description: `Seller or ADMIN only (403). Only draft and active listings change (409 otherwise). ${STATES}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: [
        { rule: 'owner', field: 'listingId', record: 'listing', why: 'its seller' },
        { rule: 'owner', field: 'imageFileIds', record: 'file' },
      ],
    },
    subject: listingUpdate,
    errors: ['NOT_FOUND', 'CONFLICT'],
    // Photos are added once uploaded (docs/media.md): a listing is made without them, as a person first writes one.
    example: { price: 220, quantity: 10, imageFileIds: ['fil_01HZX3K6Q2W8N4B7T5R9V0C1MD'] },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/listings/:listingId/status',
    summary: 'Move a listing to another state',
    description: `Seller or ADMIN only (403). ${STATES} Publishing emits \`listing.published\`.`,
    tags: TAGS,
    policy: { ...WRITE, object: { rule: 'owner', field: 'listingId', record: 'listing', why: 'its seller' } },
    subject: listingSetStatus,
    errors: ['NOT_FOUND', 'CONFLICT'],
    example: { status: 'cancelled' },
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/listings/:listingId',
    summary: 'Cancel a listing',
    description:
      'Moves it to cancelled (it is kept, not erased); seller or ADMIN only (of an organization’s listing, its ' +
      `owners and managers). ${STATES}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      orgRole: 'manager',
      object: { rule: 'owner', field: 'listingId', record: 'listing', why: 'its seller' },
    },
    subject: listingCancel,
    errors: ['NOT_FOUND', 'CONFLICT'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/listings/:listingId/offers',
    summary: 'Make an offer',
    description:
      'The buyer is the caller (not the seller: 403). `price` per unit in minor units of the listing’s currency; ' +
      `\`quantity\` at most what is available (400). Only active listings take offers (409). Emits \`offer.made\`. ${TURNS}`,
    tags: TAGS,
    policy: {
      ...CREATE,
      object: {
        rule: 'public',
        field: 'listingId',
        record: 'listing',
        why: 'any buyer but the seller, on a published listing',
      },
    },
    subject: offerMake,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED'],
    example: { quantity: 2, price: 200, message: 'Could I pick them up on Saturday?' },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/listings/:listingId/offers',
    summary: 'Offers on a listing',
    description: `The seller (and ADMINs) see every offer, anyone else only their own; oldest first. ${PAGING}`,
    tags: TAGS,
    policy: {
      ...READ,
      object: {
        rule: 'party',
        field: 'listingId',
        record: 'listing',
        why: 'the seller sees every offer, a buyer their own',
      },
    },
    subject: offerList,
    page: { item: Offer },
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/offers',
    summary: 'Your offers as a buyer',
    description:
      'The offers you made, on every listing, newest first, each with its listing as it is now (`listing`: id, ' +
      'title, price, currency, quantity left, status). Filter by `status`. A rejected offer says why in ' +
      '`rejectionReason`: `declined` by the seller, `counter-declined` by you, `sold-out` when another buyer’s ' +
      'accepted offer left fewer units than you asked for, `listing-cancelled` or `listing-unpublished`. ' +
      '`buyerId` must be your own id (403 FORBIDDEN otherwise; an ADMIN may name any buyer, as ADMINs see every ' +
      `offer of a listing). ${PAGING}`,
    tags: TAGS,
    policy: { ...READ, object: { rule: 'self', field: 'buyerId' } },
    subject: offerListByBuyer,
    page: { item: BuyerOffer },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/offers/:offerId/counter',
    summary: 'Counter an offer',
    description: `The seller proposes another price per unit. Emits \`offer.countered\`. ${TURNS} ${OFFER_PATH}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: { rule: 'party', field: 'offerId', record: 'offer', why: 'the party whose turn it is' },
    },
    subject: offerCounter,
    errors: ['NOT_FOUND', 'CONFLICT'],
    example: { price: 230 },
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/offers/:offerId/accept',
    summary: 'Accept an offer or a counter',
    description:
      'Sells the offer’s quantity at the agreed price (the counter price if any): the listing’s quantity goes ' +
      'down and at 0 the listing is sold (`listing.sold`); open offers asking for more than what remains are ' +
      'rejected with `rejectionReason` `sold-out` (`offer.rejected`, reason sold-out). Done under a row lock on ' +
      'the listing: of two buyers racing for the last unit exactly one wins; the others get 409 CONFLICT and ' +
      `their offers read rejected, sold-out. ${TURNS} ${OFFER_PATH}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: { rule: 'party', field: 'offerId', record: 'offer', why: 'the party whose turn it is' },
    },
    subject: offerAccept,
    errors: ['NOT_FOUND', 'CONFLICT'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/offers/:offerId/reject',
    summary: 'Reject an offer or a counter',
    description:
      'The offer’s `rejectionReason` is `declined` when the seller rejects a pending offer, `counter-declined` ' +
      `when the buyer rejects the counter. Emits \`offer.rejected\` (reason rejected). ${TURNS} ${OFFER_PATH}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: { rule: 'party', field: 'offerId', record: 'offer', why: 'the party whose turn it is' },
    },
    subject: offerReject,
    errors: ['NOT_FOUND', 'CONFLICT'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/offers/:offerId/withdraw',
    summary: 'Withdraw an offer',
    description: `The buyer takes back an open offer. Emits \`offer.withdrawn\`. ${TURNS} ${OFFER_PATH}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: { rule: 'party', field: 'offerId', record: 'offer', why: 'the party who made the standing offer' },
    },
    subject: offerWithdraw,
    errors: ['NOT_FOUND', 'CONFLICT'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/offers/:offerId/review',
    summary: 'Review a sale',
    description:
      'The buyer of an accepted offer rates the seller 1–5 once (409 DUPLICATE the second time; 409 CONFLICT ' +
      `before acceptance). Answers 201 with the review. The ratings make the seller profile’s rating. ${OFFER_PATH}`,
    tags: TAGS,
    policy: {
      ...WRITE,
      object: { rule: 'party', field: 'offerId', record: 'offer', why: 'the buyer of an accepted offer' },
    },
    subject: offerReview,
    status: 201,
    errors: ['NOT_FOUND', 'CONFLICT', 'DUPLICATE'],
    example: { rating: 5, comment: 'Healthy seedlings, well packed.' },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/recommendations',
    summary: 'Listings recommended to you',
    description:
      'Active listings of other sellers near you (`lat`/`lon`, else your demand preferences’ location and ' +
      'radius, else anywhere), scored: 3 for a wishlist match, 2 for a crop your preferences ask for at an ' +
      'acceptable price, plus up to 1 for nearness (10 / (10 + km)). Listings matching neither are left out. ' +
      'Each comes with its score and reasons.',
    tags: TAGS,
    policy: { ...READ, object: { rule: 'own', why: 'recommendations for the caller' } },
    subject: listingRecommend,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/sellers/:sellerId',
    summary: 'Seller profile',
    description:
      'Public page data: active listings and their categories, completed sales (accepted offers) and units sold, ' +
      'the rating (mean of buyers’ reviews and their count) and the first listing’s date. 404 for an account ' +
      'that never listed anything.',
    tags: TAGS,
    policy: { public: true, object: { rule: 'public', field: 'sellerId', record: 'seller profile' } },
    subject: sellerProfileGet,
    errors: ['NOT_FOUND'],
  });

  busRoute(app, deps, {
    method: 'POST',
    url: '/wishlist',
    summary: 'Add to your wishlist',
    description: 'At least one of `q` (words), `category`, `crop`, `maxPrice`. Wishlists are private to their owner.',
    tags: TAGS,
    policy: { ...CREATE, object: { rule: 'own', why: 'the caller’s wishlist' } },
    subject: wishlistAdd,
    status: 201,
    errors: ['IDEMPOTENCY_KEY_REUSED'],
    example: { q: 'heirloom tomato', category: 'seedlings', maxPrice: 300 },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/wishlist',
    summary: 'Your wishlist',
    description: `Newest first. ${PAGING}`,
    tags: TAGS,
    policy: { ...READ, object: { rule: 'own', why: 'the caller’s wishlist' } },
    subject: wishlistList,
    page: { item: WishlistItem },
  });

  busRoute(app, deps, {
    method: 'DELETE',
    url: '/wishlist/:itemId',
    summary: 'Remove a wishlist item',
    description: 'Your own items only; anyone else’s is 404 NOT_FOUND.',
    tags: TAGS,
    policy: { ...WRITE, object: { rule: 'owner', field: 'itemId', record: 'wishlist item' } },
    subject: wishlistRemove,
    errors: ['NOT_FOUND'],
  });
};
