// Rootline's service worker: shows Web Push notifications and opens the app where they point. It is served at the
// app's root (/sw.js) so its scope is the whole app. It caches nothing: the app is always read from the network.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// A push carries JSON { id, type, title, body, url } (docs/notifications.md).
self.addEventListener('push', (event) => {
  let message = { title: 'Rootline', body: '', url: '/inbox', id: undefined };
  try {
    message = { ...message, ...(event.data ? event.data.json() : {}) };
  } catch {
    message.body = event.data ? event.data.text() : '';
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.id,
      icon: '/favicon.svg',
      data: { url: message.url || '/inbox' },
    }),
  );
});

// Opening a notification focuses an open tab of the app at its address, or opens one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/inbox', self.location.origin);
  const url = target.origin === self.location.origin ? target.href : new URL('/inbox', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if ('focus' in client) return client.navigate(url).then((c) => (c ?? client).focus());
      }
      return self.clients.openWindow(url);
    }),
  );
});
