import { APP_PAGES, type AppPage } from '@rootline/contracts/app-links';
import { createBrowserRouter, type RouteObject, RouterProvider, redirect } from 'react-router';
import { AppLayout } from './layout';
import { Page as OutboxPage } from './pages/outbox';
import { RouteError } from './route-error';

// Each page is its own chunk, loaded on first visit: the first page sends only the shell and itself.
const page = (load: () => Promise<{ Page: React.ComponentType }>) => async () => ({ Component: (await load()).Page });

/**
 * What each page of APP_PAGES (@rootline/contracts/app-links, the table message links are made from) shows: the
 * router has exactly those paths, so a link in an email, a push message or an inbox item opens a page of the app.
 */
const PAGES: Record<AppPage, Omit<RouteObject, 'path' | 'index' | 'children'>> = {
  home: { lazy: page(() => import('./pages/home')) },
  signIn: { lazy: page(() => import('./pages/sign-in')) },
  signUp: { lazy: page(() => import('./pages/sign-up')) },
  verifyEmail: { lazy: page(() => import('./pages/verify-email')) },
  forgotPassword: { lazy: page(() => import('./pages/forgot-password')) },
  resetPassword: { lazy: page(() => import('./pages/reset-password')) },
  account: { lazy: page(() => import('./pages/account')) },
  registerAnonymous: { lazy: page(() => import('./pages/register-anonymous')) },
  registerPlant: { lazy: page(() => import('./pages/register-plant')) },
  myPlants: { lazy: page(() => import('./pages/my-plants')) },
  plant: { lazy: page(() => import('./pages/plant')) },
  plantEnvironment: { lazy: page(() => import('./pages/plant-environment')) },
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
  listing: { lazy: page(() => import('./pages/market-listing')) },
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
  // In the first chunk: the writes kept on this device can be seen without the network.
  outbox: { Component: OutboxPage },
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
    Component: AppLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children,
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
