import type { AppPage } from '@rootline/contracts/app-links';
import type { ComponentType } from 'react';

/** A page's module: the component the router shows. */
export type PageModule = { Page: ComponentType };

/**
 * Each page's code, its own chunk, loaded on first visit: the first page sends only the shell and itself. One table
 * for the router (app/router.tsx) and for the first script of index.html (src/page-first.ts), which starts the opened
 * page's code while the app's own code is still coming (ADR 239). Imports nothing else, so that script stays small.
 */
export const PAGE_CODE: Record<Exclude<AppPage, 'environment'>, () => Promise<PageModule>> = {
  home: () => import('./pages/home'),
  signIn: () => import('./pages/sign-in'),
  signUp: () => import('./pages/sign-up'),
  verifyEmail: () => import('./pages/verify-email'),
  forgotPassword: () => import('./pages/forgot-password'),
  resetPassword: () => import('./pages/reset-password'),
  account: () => import('./pages/account'),
  registerAnonymous: () => import('./pages/register-anonymous'),
  registerPlant: () => import('./pages/register-plant'),
  myPlants: () => import('./pages/my-plants'),
  plant: () => import('./pages/plant'),
  plantEnvironment: () => import('./pages/plant-environment'),
  environmentCompare: () => import('./pages/environment-compare'),
  environmentAnalysis: () => import('./pages/environment-analysis'),
  discover: () => import('./pages/discover'),
  farms: () => import('./pages/vertical-farms'),
  farmRecipes: () => import('./pages/farm-recipes'),
  farmBatch: () => import('./pages/farm-batch'),
  farm: () => import('./pages/farm'),
  farmAnalytics: () => import('./pages/farm-analytics'),
  demand: () => import('./pages/demand-preferences'),
  demandPlanning: () => import('./pages/demand-planning'),
  demandSupply: () => import('./pages/demand-supply'),
  market: () => import('./pages/market'),
  marketMine: () => import('./pages/market-mine'),
  marketOffers: () => import('./pages/market-offers'),
  marketSell: () => import('./pages/market-sell'),
  marketWishlist: () => import('./pages/market-wishlist'),
  listing: () => import('./pages/market-listing'),
  seller: () => import('./pages/market-seller'),
  admin: () => import('./pages/admin-users'),
  adminUsers: () => import('./pages/admin-users'),
  adminAgents: () => import('./pages/admin-agents'),
  adminHealth: () => import('./pages/admin-health'),
  network: () => import('./pages/network'),
  networkAudit: () => import('./pages/network-audit'),
  networkWebhooks: () => import('./pages/network-webhooks'),
  networkSignatures: () => import('./pages/network-signatures'),
  networkExports: () => import('./pages/network-exports'),
  inbox: () => import('./pages/inbox'),
  outbox: () => import('./pages/outbox'),
  notificationSettings: () => import('./pages/notification-settings'),
  unsubscribe: () => import('./pages/unsubscribe'),
  organizations: () => import('./pages/organizations'),
  myOrganizations: () => import('./pages/my-organizations'),
  newOrganization: () => import('./pages/new-organization'),
  organizationInvitation: () => import('./pages/organization-invitation'),
  organization: () => import('./pages/organization'),
  organizationMembers: () => import('./pages/organization-members'),
};

/** The page of a path no page has. */
export const NOT_FOUND_CODE = (): Promise<PageModule> => import('./pages/not-found');
