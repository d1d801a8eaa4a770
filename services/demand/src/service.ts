import { fileURLToPath } from 'node:url';
import type { ServiceModule } from '@rootline/host';
import { DemandConfig } from './config.js';
import { outbox } from './db/schema.js';
import { importDemand } from './handlers/import.js';
import {
  cancelListing,
  createListing,
  getListing,
  listListingsHandler,
  setListingStatus,
  showingImage,
  updateListingHandler,
} from './handlers/listings.js';
import {
  addWishlistItem,
  getSellerProfile,
  listWishlist,
  recommendListings,
  removeWishlistItem,
  searchListingsHandler,
} from './handlers/market.js';
import {
  acceptOffer,
  counterOffer,
  listBuyerOffersHandler,
  listOffersHandler,
  makeOffer,
  rejectOffer,
  reviewOffer,
  withdrawOffer,
} from './handlers/offers.js';
import { forecastHandler, generateSignal, recommendCropsHandler } from './handlers/planning.js';
import { getPreferences, listPreferencesHandler, savePreferences } from './handlers/preferences.js';
import { commitSupply, listSupplyHandler, listSupplyMatchesHandler, matchHandler } from './handlers/supply.js';
import { fillDemandPlaces } from './jobs/backfill-places.js';
import { demandNoiseKey } from './noise-key.js';

/**
 * demand: demand planning (preferences, signals, recommendations, forecasts, supply and matches) and the plant
 * marketplace where that demand is met (listings, offers, search, seller profiles, wishlists).
 */
export const service: ServiceModule<typeof DemandConfig> = {
  name: 'demand',
  version: '0.2.0',
  config: DemandConfig,
  db: { schema: 'demand', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  create(ctx) {
    const noiseKey = demandNoiseKey(ctx);
    const limits = { matchRunsPerDay: ctx.config.MATCH_RUNS_PER_DAY, suppliesPerDay: ctx.config.SUPPLIES_PER_DAY };
    let stopping = false;
    let backfill: Promise<void> = Promise.resolve();
    return {
      handlers: [
        // Demand planning.
        savePreferences(ctx),
        listPreferencesHandler(ctx),
        getPreferences(ctx),
        generateSignal(ctx, noiseKey),
        recommendCropsHandler(ctx, noiseKey),
        forecastHandler(ctx),
        commitSupply(ctx, limits),
        listSupplyHandler(ctx),
        listSupplyMatchesHandler(ctx),
        matchHandler(ctx, limits),
        importDemand(ctx),
        // Marketplace: listings.
        createListing(ctx),
        getListing(ctx),
        showingImage(ctx),
        updateListingHandler(ctx),
        setListingStatus(ctx),
        cancelListing(ctx),
        listListingsHandler(ctx),
        searchListingsHandler(ctx),
        recommendListings(ctx),
        // Offers.
        makeOffer(ctx),
        listOffersHandler(ctx),
        listBuyerOffersHandler(ctx),
        counterOffer(ctx),
        acceptOffer(ctx),
        rejectOffer(ctx),
        withdrawOffer(ctx),
        reviewOffer(ctx),
        // Sellers and wishlists.
        getSellerProfile(ctx),
        addWishlistItem(ctx),
        listWishlist(ctx),
        removeWishlistItem(ctx),
      ],
      subscribers: [],
      start: async () => {
        backfill = fillDemandPlaces(ctx, () => stopping);
      },
      stop: async () => {
        stopping = true;
        await backfill;
      },
    };
  },
};
