import type { components, paths } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../lib/api-client';

export type SellerProfile = components['schemas']['SellerProfile'];
export type WishlistItem = components['schemas']['WishlistItem'];
export type WishlistInput = paths['/api/marketplace/wishlist']['post']['requestBody']['content']['application/json'];

export function useSellerProfile(sellerId: string) {
  return useQuery({
    queryKey: ['market', 'seller', sellerId],
    queryFn: () => unwrap(api.GET('/api/marketplace/sellers/{sellerId}', { params: { path: { sellerId } } })),
  });
}

const WISHLIST = ['market', 'wishlist'] as const;

export function useWishlist(page: number) {
  return useQuery({
    queryKey: [...WISHLIST, page],
    queryFn: () => unwrapPage(api.GET('/api/marketplace/wishlist', { params: { query: { page, limit: 20 } } })),
  });
}

export function useAddWishlistItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WishlistInput) => unwrap(api.POST('/api/marketplace/wishlist', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['market'] }),
  });
}

export function useRemoveWishlistItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) =>
      unwrap(api.DELETE('/api/marketplace/wishlist/{itemId}', { params: { path: { itemId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['market'] }),
  });
}

export function useRecommendations() {
  return useQuery({
    queryKey: ['market', 'recommendations'],
    queryFn: () => unwrap(api.GET('/api/marketplace/recommendations', { params: { query: { limit: 20 } } })),
  });
}
