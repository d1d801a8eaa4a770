// Rootline's service worker (ADR 225–227), built by vite-plugin-pwa (injectManifest) to /sw.js, its scope the
// whole app. It keeps the app shell for offline use, keeps recently read public API answers, waits to take over
// until the app asks (the "new version" prompt), shows Web Push notifications and wakes the outbox on Background
// Sync.
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { isKeepablePublicAnswer, PUBLIC_API_CACHE, PUBLIC_API_LIMITS } from './public-answers';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// The build's hashed files and index.html, fetched when this version installs; older versions' copies are removed.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A new version waits until the app's "Reload" asks it to take over (ADR 227); the first one controls at once.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();

/** Pages of the app: from the network (index.html carries the gateway's settings), the kept shell when offline. */
const SHELL = 'index.html';
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (err) {
        const shell = await matchPrecache(SHELL);
        if (shell) return shell;
        throw err;
      }
    },
    { denylist: [/^\/api(\/|$)/] },
  ),
);

// Reads of the API made by the app's code (not images, not live streams): from the network, and when that fails
// the last public answer kept. Only answers marked `public` are kept (ADR 226), a bounded number for a week.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin &&
    url.pathname.startsWith('/api/') &&
    request.destination === '' &&
    !(request.headers.get('accept') ?? '').includes('text/event-stream'),
  new NetworkFirst({
    cacheName: PUBLIC_API_CACHE,
    plugins: [
      {
        cacheWillUpdate: async ({ response }) =>
          isKeepablePublicAnswer(response.status, response.headers.get('cache-control')) ? response : null,
      },
      new ExpirationPlugin({ ...PUBLIC_API_LIMITS, purgeOnQuotaError: true }),
    ],
  }),
  'GET',
);

// Background Sync: the outbox (features/outbox) registers the tag; the open pages send what waits.
self.addEventListener('sync', (event: Event) => {
  const sync = event as Event & { tag: string; waitUntil(p: Promise<unknown>): void };
  if (sync.tag !== 'rootline-outbox') return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) client.postMessage({ type: 'outbox-sync' });
    }),
  );
});

// A push carries JSON { id, type, title, body, url } (docs/notifications.md).
self.addEventListener('push', (event) => {
  let message: { title: string; body: string; url: string; id?: string } = {
    title: 'Rootline',
    body: '',
    url: '/inbox',
  };
  try {
    message = { ...message, ...(event.data ? event.data.json() : {}) };
  } catch {
    message.body = event.data ? event.data.text() : '';
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      ...(message.id ? { tag: message.id } : {}),
      icon: '/icon-192.png',
      data: { url: message.url || '/inbox' },
    }),
  );
});

// Opening a notification focuses an open tab of the app at its address, or opens one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data as { url?: string } | null)?.url || '/inbox', self.location.origin);
  const url = target.origin === self.location.origin ? target.href : new URL('/inbox', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      for (const client of windows) {
        if ('focus' in client) return ((await client.navigate(url)) ?? client).focus();
      }
      return self.clients.openWindow(url);
    }),
  );
});
