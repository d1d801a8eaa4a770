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
      { path: 'vertical-farm', lazy: page(() => import('./pages/vertical-farms')) },
      { path: 'vertical-farm/recipes', lazy: page(() => import('./pages/farm-recipes')) },
      { path: 'vertical-farm/batch/:batchId', lazy: page(() => import('./pages/farm-batch')) },
      { path: 'vertical-farm/:farmId', lazy: page(() => import('./pages/farm')) },
      { path: 'vertical-farm/:farmId/analytics', lazy: page(() => import('./pages/farm-analytics')) },
      { path: 'demand', lazy: page(() => import('./pages/demand-preferences')) },
      { path: 'demand/planning', lazy: page(() => import('./pages/demand-planning')) },
      { path: 'demand/supply', lazy: page(() => import('./pages/demand-supply')) },
      { path: '*', lazy: page(() => import('./pages/not-found')) },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
