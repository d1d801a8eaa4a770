import { createBrowserRouter, RouterProvider, redirect } from 'react-router';
import { AppLayout } from './layout';
import { RouteError } from './route-error';

// Each page is its own chunk, loaded on first visit: the first page sends only the shell and itself.
const page = (load: () => Promise<{ Page: React.ComponentType }>) => async () => ({ Component: (await load()).Page });

const router = createBrowserRouter([
  {
    path: '/',
    Component: AppLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: [
      { index: true, lazy: page(() => import('./pages/home')) },
      { path: 'signin', lazy: page(() => import('./pages/sign-in')) },
      { path: 'signup', lazy: page(() => import('./pages/sign-up')) },
      { path: 'verify-email', lazy: page(() => import('./pages/verify-email')) },
      { path: 'forgot-password', lazy: page(() => import('./pages/forgot-password')) },
      { path: 'reset-password', lazy: page(() => import('./pages/reset-password')) },
      { path: 'account', lazy: page(() => import('./pages/account')) },
      { path: 'plants/register-anonymous', lazy: page(() => import('./pages/register-anonymous')) },
      { path: 'plants/new', lazy: page(() => import('./pages/register-plant')) },
      { path: 'plants/mine', lazy: page(() => import('./pages/my-plants')) },
      { path: 'plants/:plantId', lazy: page(() => import('./pages/plant')) },
      { path: 'plants/:plantId/environment', lazy: page(() => import('./pages/plant-environment')) },
      // The main menu's Environment entry: its first page.
      { path: 'environment', loader: () => redirect('/environment/compare') },
      { path: 'environment/compare', lazy: page(() => import('./pages/environment-compare')) },
      { path: 'environment/analysis', lazy: page(() => import('./pages/environment-analysis')) },
      { path: 'discover', lazy: page(() => import('./pages/discover')) },
      { path: 'vertical-farm', lazy: page(() => import('./pages/vertical-farms')) },
      { path: 'vertical-farm/recipes', lazy: page(() => import('./pages/farm-recipes')) },
      { path: 'vertical-farm/batch/:batchId', lazy: page(() => import('./pages/farm-batch')) },
      { path: 'vertical-farm/:farmId', lazy: page(() => import('./pages/farm')) },
      { path: 'vertical-farm/:farmId/analytics', lazy: page(() => import('./pages/farm-analytics')) },
      { path: 'demand', lazy: page(() => import('./pages/demand-preferences')) },
      { path: 'demand/planning', lazy: page(() => import('./pages/demand-planning')) },
      { path: 'demand/supply', lazy: page(() => import('./pages/demand-supply')) },
      { path: 'market', lazy: page(() => import('./pages/market')) },
      { path: 'market/mine', lazy: page(() => import('./pages/market-mine')) },
      { path: 'market/offers', lazy: page(() => import('./pages/market-offers')) },
      { path: 'market/sell', lazy: page(() => import('./pages/market-sell')) },
      { path: 'market/wishlist', lazy: page(() => import('./pages/market-wishlist')) },
      { path: 'market/listings/:listingId', lazy: page(() => import('./pages/market-listing')) },
      { path: 'market/sellers/:sellerId', lazy: page(() => import('./pages/market-seller')) },
      { path: 'admin', lazy: page(() => import('./pages/admin-users')) },
      { path: 'admin/users', lazy: page(() => import('./pages/admin-users')) },
      { path: 'admin/agents', lazy: page(() => import('./pages/admin-agents')) },
      { path: 'admin/health', lazy: page(() => import('./pages/admin-health')) },
      { path: 'network', lazy: page(() => import('./pages/network')) },
      { path: 'network/audit', lazy: page(() => import('./pages/network-audit')) },
      { path: 'network/webhooks', lazy: page(() => import('./pages/network-webhooks')) },
      { path: 'network/signatures', lazy: page(() => import('./pages/network-signatures')) },
      { path: 'network/exports', lazy: page(() => import('./pages/network-exports')) },
      { path: 'inbox', lazy: page(() => import('./pages/inbox')) },
      { path: 'settings/notifications', lazy: page(() => import('./pages/notification-settings')) },
      { path: 'unsubscribe', lazy: page(() => import('./pages/unsubscribe')) },
      { path: '*', lazy: page(() => import('./pages/not-found')) },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
