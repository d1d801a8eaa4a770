import type { components, paths } from '@rootline/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';
import { preparePhoto } from '../../media/lib/prepare-photo';
import { listingQuery, MARKET_KEY } from './listing-queries';

export type Listing = components['schemas']['Listing'];
export type ListingHit = components['schemas']['ListingHit'];
export type ListingCategory = Listing['category'];
export type ListingStatus = Listing['status'];
export type ListingInput = paths['/api/marketplace/listings']['post']['requestBody']['content']['application/json'];
export type ListingUpdate = NonNullable<
  paths['/api/marketplace/listings/{listingId}']['patch']['requestBody']
>['content']['application/json'];
export type ListingSearch = NonNullable<paths['/api/marketplace/listings/search']['get']['parameters']['query']>;

export const LISTING_CATEGORIES = [
  'seeds',
  'seedlings',
  'cuttings',
  'plants',
  'produce',
] as const satisfies readonly ListingCategory[];

export function useListingSearch(query: ListingSearch) {
  return useQuery({
    queryKey: ['market', 'search', query],
    queryFn: () => unwrapPage(api.GET('/api/marketplace/listings/search', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** A seller's listings: with `sellerId` the API answers every state (drafts to their seller only). */
export function useSellerListings(sellerId: string, status: ListingStatus | undefined, page: number, limit = 20) {
  return useQuery({
    queryKey: ['market', 'seller-listings', sellerId, status ?? 'all', page, limit],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/marketplace/listings', {
          params: { query: { sellerId, ...(status ? { status } : {}), page, limit } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useListing(listingId: string) {
  return useQuery(listingQuery(listingId));
}

export function useCreateListing() {
  const client = useQueryClient();
  return useMutation({
    // One key per submitted form: a retry of the same submission cannot list the thing twice.
    mutationFn: ({ body, key }: { body: ListingInput; key: string }) =>
      unwrap(api.POST('/api/marketplace/listings', { body, params: { header: { 'idempotency-key': key } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: MARKET_KEY }),
  });
}

export function useUpdateListing(listingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ListingUpdate) =>
      unwrap(api.PATCH('/api/marketplace/listings/{listingId}', { params: { path: { listingId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: MARKET_KEY }),
  });
}

/** Publish (→ active), pause (→ draft) or cancel (→ cancelled, by DELETE as the API documents it). */
export function useMoveListing(listingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (to: 'active' | 'draft' | 'cancelled') =>
      to === 'cancelled'
        ? unwrap(api.DELETE('/api/marketplace/listings/{listingId}', { params: { path: { listingId } } }))
        : unwrap(
            api.POST('/api/marketplace/listings/{listingId}/status', {
              params: { path: { listingId } },
              body: { status: to },
            }),
          ),
    onSettled: () => client.invalidateQueries({ queryKey: MARKET_KEY }),
  });
}

export type UploadedImage = components['schemas']['File'];

/**
 * Uploads one image for a listing (multipart: the fields first, then the file), not attached to any record: the
 * listing names it among its `imageFileIds` when it is created.
 */
export function useUploadListingImage() {
  return useMutation({
    mutationFn: async (chosen: File) => {
      const form = new FormData();
      form.append('category', 'product');
      // Made smaller and without its metadata first, as a plant's photos are.
      form.append('file', await preparePhoto(chosen));
      return unwrap(
        api.POST('/api/upload/image', {
          body: form as never,
          // The browser writes the multipart boundary itself.
          bodySerializer: (body: unknown) => body as FormData,
        }),
      );
    },
  });
}
