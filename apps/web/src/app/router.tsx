import { APP_PAGES, type AppPage } from '@rootline/contracts/app-links';
import {
  createBrowserRouter,
  type LoaderFunction,
  type LoaderFunctionArgs,
  type RouteObject,
  RouterProvider,
  redirect,
} from 'react-router';
import { sessionQuery } from '../features/auth/api/session';
import { listingQuery } from '../features/market/api/listing-queries';
import { networkStatsQuery, plantQuery, RECENT_PLANTS, recentPlantsQuery } from '../features/plants/api/plant-queries';
import { queryClient } from '../lib/query-client';
import { AppLayout } from './layout';
import { NOT_FOUND_CODE, PAGE_CODE, type PageModule } from './page-code';
import { RouteError } from './route-error';

const page = (load: () => Promise<PageModule>) => async () => ({ Component: (await load()).Page });

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

/** The reads each page starts beside its code, and the one page that is only a redirect. */
const LOADERS: Partial<Record<AppPage, LoaderFunction>> = {
  home: prefetch(() => [read(recentPlantsQuery(RECENT_PLANTS)), read(networkStatsQuery())]),
  plant: prefetch((p) => [read(plantQuery(p.plantId ?? ''))]),
  listing: prefetch((p) => [read(listingQuery(p.listingId ?? ''))]),
  // The main menu's Environment entry: its first page.
  environment: () => redirect(APP_PAGES.environmentCompare),
};

/**
 * What each page of APP_PAGES (@rootline/contracts/app-links, the table message links are made from) shows: the
 * router has exactly those paths, so a link in an email, a push message or an inbox item opens a page of the app.
 */
function route(name: AppPage): RouteObject {
  const code = name === 'environment' ? undefined : PAGE_CODE[name];
  const loader = LOADERS[name];
  return {
    ...(name === 'home' ? { index: true } : { path: APP_PAGES[name].slice(1) }),
    ...(loader ? { loader } : {}),
    ...(code ? { lazy: page(code) } : {}),
  };
}

const children: RouteObject[] = [
  ...(Object.keys(APP_PAGES) as AppPage[]).map(route),
  { path: '*', lazy: page(NOT_FOUND_CODE) },
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
