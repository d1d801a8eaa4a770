import type { Workbox } from 'workbox-window';

// The app's service worker (src/sw/sw.ts, built to /sw.js; ADR 225–227): registered once the page has loaded and the
// browser is idle (ADR 239), with workbox-window fetched then, so neither competes with the first paint. A new
// version waits until the person chooses "Reload" (the update prompt), then takes over and every open page of the
// app reloads on it, so no page runs old code against the new worker's files.

/** Where the worker is served; its scope is the whole app. */
export const SERVICE_WORKER_URL = '/sw.js';
/** How often an open page asks whether a new version was deployed, besides each time it is shown again. */
const CHECK_EVERY_MS = 60 * 60 * 1000;
/** Caches the worker keeps the build's files in; every other cache is a runtime cache, cleared at sign-out. */
const PRECACHE_PREFIX = 'workbox-precache';

let workbox: Workbox | undefined;
let waiting = false;
const listeners = new Set<(waiting: boolean) => void>();

function setWaiting(value: boolean): void {
  waiting = value;
  for (const listener of listeners) listener(value);
}

/** Whether this browser can run the worker (a secure context: https, or http on localhost). */
export function serviceWorkerSupported(): boolean {
  return 'serviceWorker' in navigator && window.isSecureContext;
}

/** Calls `run` once the page has loaded and the browser has a quiet moment (at most `IDLE_WAIT_MS` later). */
function afterLoadWhenIdle(run: () => void): void {
  const idle = () =>
    'requestIdleCallback' in window ? window.requestIdleCallback(run, { timeout: IDLE_WAIT_MS }) : setTimeout(run, 1);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** The longest the registration waits for an idle moment after `load`. */
const IDLE_WAIT_MS = 5000;
let registering = false;

/**
 * Registers the worker once the page has loaded and the browser is idle. In the Vite dev server the worker is an ES
 * module compiled on the fly (vite.config.ts), at the same address. Safe to call more than once.
 */
export function registerServiceWorker(): void {
  if (registering || !serviceWorkerSupported()) return;
  registering = true;
  afterLoadWhenIdle(() => void start().catch(() => undefined));
}

async function start(): Promise<void> {
  const { Workbox } = await import('workbox-window');
  workbox = new Workbox(SERVICE_WORKER_URL, { scope: '/', ...(import.meta.env.DEV ? { type: 'module' } : {}) });
  workbox.addEventListener('waiting', () => setWaiting(true));
  // A page that was controlled before reloads when a new version takes over (from this page or another one).
  const controlled = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlled) window.location.reload();
  });
  // Immediately: the page has loaded already, so workbox-window need not wait for `load` again.
  void workbox.register({ immediate: true }).catch(() => undefined);
  const check = () => void workbox?.update().catch(() => undefined);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  window.setInterval(check, CHECK_EVERY_MS);
}

/** Follows whether a new version waits to take over; returns the unsubscribe. */
export function onUpdateWaiting(listener: (waiting: boolean) => void): () => void {
  listeners.add(listener);
  listener(waiting);
  return () => listeners.delete(listener);
}

/** Lets the waiting version take over; the page reloads when it does. */
export function activateUpdate(): void {
  workbox?.messageSkipWaiting();
}

/**
 * Removes every runtime cache (answers kept while the app was used), keeping only the build's own files. Called at
 * sign-out, so nothing read while signed in stays on the device.
 */
export async function clearRuntimeCaches(): Promise<void> {
  if (!('caches' in window)) return;
  const names = await caches.keys();
  await Promise.all(names.filter((n) => !n.startsWith(PRECACHE_PREFIX)).map((n) => caches.delete(n)));
}
