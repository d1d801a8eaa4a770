import { createBrowserRouter, RouterProvider } from 'react-router';
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
      { path: 'discover', lazy: page(() => import('./pages/discover')) },
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
