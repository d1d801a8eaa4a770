import type { components, paths } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';
import { MARKET_KEY } from './listing-queries';

export type Offer = components['schemas']['Offer'];
export type BuyerOffer = components['schemas']['BuyerOffer'];
export type OfferStatus = Offer['status'];
export type OfferRejectionReason = NonNullable<Offer['rejectionReason']>;
export type OfferInput =
  paths['/api/marketplace/listings/{listingId}/offers']['post']['requestBody']['content']['application/json'];
export type ReviewInput =
  paths['/api/marketplace/offers/{offerId}/review']['post']['requestBody']['content']['application/json'];

export const offersKey = (listingId: string) => ['market', 'offers', listingId] as const;

/** Offers on a listing: all of them for its seller, one's own for anyone else. */
export function useOffers(listingId: string, page: number, enabled = true) {
  return useQuery({
    queryKey: [...offersKey(listingId), page],
    enabled,
    queryFn: () =>
      unwrapPage(
        api.GET('/api/marketplace/listings/{listingId}/offers', {
          params: { path: { listingId }, query: { page, limit: 20 } },
        }),
      ),
  });
}

export const buyerOffersKey = ['market', 'buyer-offers'] as const;

/** The caller's own offers as a buyer, newest first, each with its listing as it is now. */
export function useBuyerOffers(status: OfferStatus | undefined, page: number) {
  return useQuery({
    queryKey: [...buyerOffersKey, status ?? 'all', page],
    queryFn: () => unwrapPage(api.GET('/api/marketplace/offers', { params: { query: { page, limit: 20, status } } })),
  });
}

export function useMakeOffer(listingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: OfferInput; key: string }) =>
      unwrap(
        api.POST('/api/marketplace/listings/{listingId}/offers', {
          params: { path: { listingId }, header: { 'idempotency-key': key } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: MARKET_KEY }),
  });
}

export type OfferMove = { offerId: string } & (
  | { action: 'accept' | 'reject' | 'withdraw' }
  | { action: 'counter'; price: number }
);

/** Accept, reject, withdraw or counter: the answer, or the API's refusal (e.g. the listing sold meanwhile). */
export function useOfferMove() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (move: OfferMove) => {
      const params = { path: { offerId: move.offerId } };
      switch (move.action) {
        case 'accept':
          return unwrap(api.POST('/api/marketplace/offers/{offerId}/accept', { params }));
        case 'reject':
          return unwrap(api.POST('/api/marketplace/offers/{offerId}/reject', { params }));
        case 'withdraw':
          return unwrap(api.POST('/api/marketplace/offers/{offerId}/withdraw', { params }));
        case 'counter':
          return unwrap(api.POST('/api/marketplace/offers/{offerId}/counter', { params, body: { price: move.price } }));
      }
    },
    // Refused or not, what the page shows must be what the API holds now.
    onSettled: () => client.invalidateQueries({ queryKey: MARKET_KEY }),
  });
}

export function useReviewOffer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ offerId, body }: { offerId: string; body: ReviewInput }) =>
      unwrap(api.POST('/api/marketplace/offers/{offerId}/review', { params: { path: { offerId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['market', 'seller'] }),
  });
}
