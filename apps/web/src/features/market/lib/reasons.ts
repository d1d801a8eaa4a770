import type { components } from '@rootline/sdk';
import { currentLanguage, t } from '../../../i18n';

/** Why a listing is recommended, as the API names it: a code with the values of its sentence. */
export type ListingReason = components['schemas']['ListingReason'];

/** A reason in words, from its code and values (ADR 255); a distance with one decimal, the reader's way. */
export function listingReason(r: ListingReason): string {
  switch (r.code) {
    case 'wishlist':
      return t('market:recommendations.reasons.wishlist');
    case 'preference':
      return t('market:recommendations.reasons.preference', { crop: r.params.crop });
    case 'distance':
      return t('market:recommendations.reasons.distance', {
        km: r.params.km.toLocaleString(currentLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      });
  }
}
