import type { Crop } from '@rootline/contracts/demand';
import type { ListingReason } from '@rootline/contracts/marketplace';
import { haversineKm, normaliseSearchText, type Point } from '@rootline/domain';

/** What recommendations know of a candidate listing. */
export interface CandidateListing {
  id: string;
  category: string;
  crop: string | null;
  price: number;
  currency: string;
  searchText: string;
  latitude: number | null;
  longitude: number | null;
}

export interface WishlistWant {
  q: string | null;
  category: string | null;
  crop: string | null;
  maxPrice: number | null;
}

export interface PreferenceWant {
  crop: string;
  maxPrice?: number | undefined;
  currency: string;
}

/** The English sentence of a reason (`reasons` of the answer); the web app words the code itself (ADR 255). */
export function listingReasonText(r: ListingReason): string {
  switch (r.code) {
    case 'wishlist':
      return 'matches your wishlist';
    case 'preference':
      return `${r.params.crop} is in your demand preferences`;
    case 'distance':
      return `${r.params.km.toFixed(1)} km away`;
  }
}

/** Weights of the score: a wishlist hit outranks a preference hit, which outranks nearness alone. */
export const WEIGHTS = { wishlist: 3, preference: 2, nearness: 1 } as const;
/** Distance at which the nearness term halves. */
export const NEARNESS_HALF_KM = 10;

function wishlistHit(l: CandidateListing, w: WishlistWant): boolean {
  if (w.category && w.category !== l.category) return false;
  if (w.crop && w.crop !== l.crop) return false;
  if (w.maxPrice !== null && l.price > w.maxPrice) return false;
  if (w.q) {
    const words = normaliseSearchText(w.q).split(' ').filter(Boolean);
    if (!words.every((word) => l.searchText.includes(word))) return false;
  }
  return true;
}

/**
 * Scores a listing for a user: WEIGHTS.wishlist if a wishlist item matches it (every given field: words in the
 * title or description, category, crop, price at most the item's maxPrice), WEIGHTS.preference if its crop is one
 * the user's demand preferences ask for at an acceptable price, plus WEIGHTS.nearness × 10 / (10 + km) when both
 * locations are known. A listing that matches neither wishlist nor preferences scores 0 (not recommended).
 */
export function scoreListing(
  l: CandidateListing,
  wants: { wishlist: WishlistWant[]; preferences: PreferenceWant[]; from?: Point | undefined },
): { score: number; reasons: string[]; reasonCodes: ListingReason[]; distanceKm: number | null } {
  const why: ListingReason[] = [];
  let score = 0;
  if (wants.wishlist.some((w) => wishlistHit(l, w))) {
    score += WEIGHTS.wishlist;
    why.push({ code: 'wishlist', params: {} });
  }
  const pref = wants.preferences.find(
    (p) => p.crop === l.crop && (p.maxPrice === undefined || p.currency !== l.currency || l.price <= p.maxPrice),
  );
  if (pref) {
    score += WEIGHTS.preference;
    why.push({ code: 'preference', params: { crop: pref.crop as Crop } });
  }
  let distanceKm: number | null = null;
  if (wants.from && l.latitude !== null && l.longitude !== null) {
    distanceKm = haversineKm(wants.from, { latitude: l.latitude, longitude: l.longitude });
    if (score > 0) {
      score += (WEIGHTS.nearness * NEARNESS_HALF_KM) / (NEARNESS_HALF_KM + distanceKm);
      why.push({ code: 'distance', params: { km: Math.round(distanceKm * 10) / 10 } });
    }
  }
  return {
    score: Math.round(score * 1000) / 1000,
    reasons: why.map(listingReasonText),
    reasonCodes: why,
    distanceKm,
  };
}
