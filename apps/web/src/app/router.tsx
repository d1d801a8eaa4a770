import { APP_PAGES, type AppPage } from '@rootline/contracts/app-links';
import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject, RouterProvider, redirect } from 'react-router';
import { sessionQuery } from '../features/auth/api/session';
import { listingQuery } from '../features/market/api/listing-queries';
import { networkStatsQuery, plantQuery, RECENT_PLANTS, recentPlantsQuery } from '../features/plants/api/plant-queries';
import { queryClient } from '../lib/query-client';
import { AppLayout } from './layout';
import { RouteError } from './route-error';

// Each page is its own chunk, loaded on first visit: the first page sends only the shell and itself.
const page = (load: () => Promise<{ Page: React.ComponentType }>) => async () => ({ Component: (await load()).Page });

/**
 * A loader that starts the reads a page's first paint waits for, beside its code rather than after it (ADR 239). It
 * does not wait for them: the page shows its own loading and errors from the query cache, as on any other visit.
 */
const prefetch =
  (start: (params: LoaderFunctionArgs['params']) => Promise<void>[]) =>
  ({ params }: LoaderFunctionArgs) => {
    void Promise.all(start(params));
    return null;
  };
const read = queryClient.prefetchQuery.bind(queryClient);

/**
 * What each page of APP_PAGES (@rootline/contracts/app-links, the table message links are made from) shows: the
 * router has exactly those paths, so a link in an email, a push message or an inbox item opens a page of the app.
 */
const PAGES: Record<AppPage, Omit<RouteObject, 'path' | 'index' | 'children'>> = {
  home: {
    loader: prefetch(() => [read(recentPlantsQuery(RECENT_PLANTS)), read(networkStatsQuery())]),
    lazy: page(() => import('./pages/home')),
  },
  signIn: { lazy: page(() => import('./pages/sign-in')) },
  signUp: { lazy: page(() => import('./pages/sign-up')) },
  verifyEmail: { lazy: page(() => import('./pages/verify-email')) },
  forgotPassword: { lazy: page(() => import('./pages/forgot-password')) },
  resetPassword: { lazy: page(() => import('./pages/reset-password')) },
  account: { lazy: page(() => import('./pages/account')) },
  registerAnonymous: { lazy: page(() => import('./pages/register-anonymous')) },
  registerPlant: { lazy: page(() => import('./pages/register-plant')) },
  myPlants: { lazy: page(() => import('./pages/my-plants')) },
  plant: { loader: prefetch((p) => [read(plantQuery(p.plantId ?? ''))]), lazy: page(() => import('./pages/plant')) },
  plantEnvironment: { lazy: page(() => import('./pages/plant-environment')) },
  seedLots: { lazy: page(() => import('./pages/seed-lots')) },
  seedLot: { lazy: page(() => import('./pages/seed-lot')) },
  loans: { lazy: page(() => import('./pages/loans')) },
  imports: { lazy: page(() => import('./pages/imports')) },
  // The main menu's Environment entry: its first page.
  environment: { loader: () => redirect(APP_PAGES.environmentCompare) },
  environmentCompare: { lazy: page(() => import('./pages/environment-compare')) },
  environmentAnalysis: { lazy: page(() => import('./pages/environment-analysis')) },
  discover: { lazy: page(() => import('./pages/discover')) },
  farms: { lazy: page(() => import('./pages/vertical-farms')) },
  farmRecipes: { lazy: page(() => import('./pages/farm-recipes')) },
  farmBatch: { lazy: page(() => import('./pages/farm-batch')) },
  farm: { lazy: page(() => import('./pages/farm')) },
  farmAnalytics: { lazy: page(() => import('./pages/farm-analytics')) },
  demand: { lazy: page(() => import('./pages/demand-preferences')) },
  demandPlanning: { lazy: page(() => import('./pages/demand-planning')) },
  demandSupply: { lazy: page(() => import('./pages/demand-supply')) },
  market: { lazy: page(() => import('./pages/market')) },
  marketMine: { lazy: page(() => import('./pages/market-mine')) },
  marketOffers: { lazy: page(() => import('./pages/market-offers')) },
  marketSell: { lazy: page(() => import('./pages/market-sell')) },
  marketWishlist: { lazy: page(() => import('./pages/market-wishlist')) },
  listing: {
    loader: prefetch((p) => [read(listingQuery(p.listingId ?? ''))]),
    lazy: page(() => import('./pages/market-listing')),
  },
  seller: { lazy: page(() => import('./pages/market-seller')) },
  admin: { lazy: page(() => import('./pages/admin-users')) },
  adminUsers: { lazy: page(() => import('./pages/admin-users')) },
  adminAgents: { lazy: page(() => import('./pages/admin-agents')) },
  adminHealth: { lazy: page(() => import('./pages/admin-health')) },
  network: { lazy: page(() => import('./pages/network')) },
  networkAudit: { lazy: page(() => import('./pages/network-audit')) },
  networkWebhooks: { lazy: page(() => import('./pages/network-webhooks')) },
  networkSignatures: { lazy: page(() => import('./pages/network-signatures')) },
  networkExports: { lazy: page(() => import('./pages/network-exports')) },
  inbox: { lazy: page(() => import('./pages/inbox')) },
  // Offline, its code comes from the worker's precache like every page's (ADR 225).
  outbox: { lazy: page(() => import('./pages/outbox')) },
  transfers: { lazy: page(() => import('./pages/transfers')) },
  notificationSettings: { lazy: page(() => import('./pages/notification-settings')) },
  unsubscribe: { lazy: page(() => import('./pages/unsubscribe')) },
  organizations: { lazy: page(() => import('./pages/organizations')) },
  myOrganizations: { lazy: page(() => import('./pages/my-organizations')) },
  newOrganization: { lazy: page(() => import('./pages/new-organization')) },
  organizationInvitation: { lazy: page(() => import('./pages/organization-invitation')) },
  organization: { lazy: page(() => import('./pages/organization')) },
  organizationMembers: { lazy: page(() => import('./pages/organization-members')) },
};

const children: RouteObject[] = [
  ...(Object.keys(PAGES) as AppPage[]).map(
    (name): RouteObject =>
      name === 'home' ? { index: true, ...PAGES[name] } : { path: APP_PAGES[name].slice(1), ...PAGES[name] },
  ),
  { path: '*', lazy: page(() => import('./pages/not-found')) },
];

const router = createBrowserRouter([
  {
    path: '/',
    // Who is signed in: asked at once, beside the page's code, as every page's header needs it.
    loader: prefetch(() => [read(sessionQuery())]),
    Component: AppLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children,
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
