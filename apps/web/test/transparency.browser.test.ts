import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@rootline/sdk';
import { signInOverHttp, TEST_ADMIN } from '@rootline/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  emailedLink,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// Transparency and notifications as a person uses them: webhooks with their delivery log against a real local
// receiver, audit entries proven in the browser, the live feed, the inbox that follows notifications live,
// preferences, the unsubscribe page, Web Push through the app's service worker, signatures and exports.

/** The browser globals the page scripts below touch (this file is compiled without the DOM library). */
interface InPage {
  performance: { getEntriesByType(type: string): unknown[] };
  document: { documentElement: { scrollWidth: number } };
  navigator: {
    serviceWorker: {
      getRegistration(
        scope: string,
      ): Promise<
        | { scope: string; active: { scriptURL: string } | null; getNotifications(): Promise<{ title: string }[]> }
        | undefined
      >;
    };
  };
  PushManager: {
    prototype: {
      subscribe(options?: { applicationServerKey?: unknown }): Promise<unknown>;
      getSubscription(): Promise<unknown>;
    };
  };
  pushKey?: number[];
}

/** A step of these tests waits on deliveries, retries and live events: slow on a loaded machine. */
const STEP_MS = 120_000;

const GROWER = {
  name: 'Tess Transparent',
  email: `tess-${Date.now()}@example.org`,
  password: 'an open ledger passphrase',
};

/** A webhook receiver that answers 500 until it is told to recover, and keeps every request it got. */
function receiver() {
  const received: { headers: Record<string, string | string[] | undefined>; body: string; answered: number }[] = [];
  let status = 500;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body, answered: status });
      res.writeHead(status).end();
    });
  });
  return {
    received,
    server,
    recover: () => {
      status = 200;
    },
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
  };
}

describe('transparency and notifications in the browser', () => {
  let rig: BrowserRig;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let userId: string;
  const hook = receiver();

  const registerPlant = async (commonName: string) =>
    String(
      (
        await call(rig, token, 'POST', '/api/plants/register', {
          commonName,
          location: { latitude: 52.37, longitude: 4.9 },
          owner: { id: userId, name: GROWER.name },
        })
      ).id,
    );

  beforeAll(async () => {
    await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
    rig = await startBrowserRig();
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(GROWER),
    });
    token = await signInOverHttp(rig.base, GROWER.email, GROWER.password);
    userId = String(((await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } }).user.id);
    context = await rig.context();
    page = await context.newPage();
    await signIn(page, GROWER);
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
    hook.server.close();
  });

  it(
    'creates a webhook, shows a failed attempt, redelivers it to the recovered receiver, tests, edits and rotates',
    async () => {
      await page.goto('/network/webhooks');
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByText('You have no webhooks yet.').waitFor();
      await expectAccessible(page);
      const form = page.getByRole('form', { name: 'New webhook' });
      await form.getByLabel('Address (URL)').fill(hook.url());
      await expect.poll(() => form.getByLabel('Plant registered').isChecked()).toBe(true);
      await form.getByRole('button', { name: 'Save the webhook' }).click();
      await form.getByText('The signing secret, shown this once: copy it now.').first().waitFor();
      const secret = (await form.locator('.secret').textContent())?.trim() ?? '';
      expect(secret).toMatch(/^whsec_/);
      const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: hook.url() }) });
      await item.waitFor();

      // A plant of the owner is an event of the webhook: the receiver answers its first attempt with 500.
      await registerPlant('Webhook willow');
      await item.getByRole('button', { name: 'Deliveries' }).click();
      const deliveries = item.getByRole('table');
      const row = deliveries.getByRole('row').filter({ hasText: 'Plant registered' });
      await row.getByText('HTTP 500').waitFor({ timeout: 60_000 });
      await expect.poll(() => row.getByText('pending').count()).toBe(1);
      await screenshot(page, 'webhooks-failed-attempt');

      hook.recover();
      await row.getByRole('button', { name: /^Redeliver Plant registered/ }).click();
      await row.getByText('delivered').waitFor({ timeout: 60_000 });
      await row.getByText('HTTP 200').waitFor();
      const events = hook.received.filter((r) => r.headers['x-rootline-event'] === 'plant.registered');
      expect(events[0]?.answered).toBe(500);
      expect(events.at(-1)?.answered).toBe(200);
      // Every attempt is the same delivery (one webhook-id), signed with the secret the page showed once.
      expect(new Set(events.map((e) => e.headers['webhook-id'])).size).toBe(1);
      for (const e of events) {
        const verdict = await verifyWebhook({ body: e.body, headers: e.headers, secret });
        expect(verdict.problems).toEqual([]);
      }
      await expectAccessible(page);
      await screenshot(page, 'webhooks-redelivered');

      await item.getByRole('button', { name: 'Send a test' }).click();
      await item.getByText(/^Test delivered \(HTTP 200, \d+ ms\)\./).waitFor({ timeout: 30_000 });
      const tested = hook.received.at(-1)!;
      expect(JSON.parse(tested.body)).toMatchObject({ event: 'webhook.test' });

      await item.getByRole('button', { name: 'Edit' }).click();
      await item.getByLabel('Transport completed').check();
      await item.getByRole('button', { name: 'Save changes' }).click();
      await item.getByText('Plant registered, Transport completed').waitFor();

      await item.getByRole('button', { name: 'Rotate the secret' }).click();
      await item.getByText('The signing secret, shown this once: copy it now.').waitFor();
      const rotated = (await item.locator('.secret').textContent())?.trim() ?? '';
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      const before = hook.received.length;
      await item.getByRole('button', { name: 'Send a test' }).click();
      await expect.poll(() => hook.received.length, { timeout: 30_000 }).toBe(before + 1);
      const signedWithNew = hook.received.at(-1)!;
      expect(
        (await verifyWebhook({ body: signedWithNew.body, headers: signedWithNew.headers, secret: rotated })).valid,
      ).toBe(true);
      expect((await verifyWebhook({ body: signedWithNew.body, headers: signedWithNew.headers, secret })).valid).toBe(
        false,
      );
    },
    STEP_MS,
  );

  it(
    'verifies an audit entry’s inclusion proof in the browser against the signed tree head',
    async () => {
      const plantId = await registerPlant('Audited aster');
      const admin = await (await rig.context()).newPage();
      await signIn(admin, TEST_ADMIN);
      await admin.goto('/network/audit');
      await admin.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await admin.getByLabel('Record id').fill(plantId);
      await admin.getByRole('button', { name: 'Apply filters' }).click();
      const entry = admin.getByRole('row').filter({ hasText: plantId });
      await expect.poll(() => entry.count(), { timeout: 30_000 }).toBe(1);
      const verify = entry.getByRole('button', { name: /^Verify entry \d+$/ });
      const index = Number((await verify.textContent())?.replace(/\D/g, ''));
      await verify.click();
      await entry.getByText(`Entry ${index} verified: every check passed.`).waitFor({ timeout: 30_000 });
      const checks = entry.getByRole('list', { name: `Verify entry ${index}` }).getByRole('listitem');
      await expect.poll(() => checks.count()).toBe(3);
      for (const text of [
        /content hashes to its leaf/,
        /Inclusion proof: \d+ hashes lead/,
        /Ed25519 signature of the tree head/,
      ]) {
        await expect.poll(() => checks.filter({ hasText: text }).getByText('passed').count()).toBe(1);
      }
      await expectAccessible(admin);
      await screenshot(admin, 'audit-entry-verified');

      // Everyone else sees the public form of the newest entries, and checks them the same way.
      await page.goto('/network/audit');
      const top = page.getByRole('row').nth(1);
      await top.getByRole('button', { name: /^Verify entry \d+$/ }).click();
      await top.getByText(/^Entry \d+ verified: every check passed\.$/).waitFor({ timeout: 30_000 });
      await expectAccessible(page);
      await admin.close();
    },
    STEP_MS,
  );

  it(
    'shows an event recorded through the API in the live feed, and the dashboard as charts',
    async () => {
      await page.goto('/network');
      await page.getByRole('heading', { level: 1, name: 'The network' }).waitFor();
      await page.locator('header').getByText('Live', { exact: true }).waitFor();
      await page.getByRole('figure').first().waitFor();
      const feed = page.getByRole('list', { name: 'Live feed' });
      const loads = await page.evaluate(
        () => (globalThis as unknown as InPage).performance.getEntriesByType('navigation').length,
      );
      await registerPlant('Feed fern');
      await feed.getByText('Feed fern').waitFor({ timeout: 60_000 });
      expect(
        await page.evaluate(() => (globalThis as unknown as InPage).performance.getEntriesByType('navigation').length),
      ).toBe(loads);
      await expectAccessible(page);
      await screenshot(page, 'network-dashboard');
      // At phone width the page is one column and nothing is wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect
        .poll(() => page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth))
        .toBeLessThanOrEqual(390);
      await screenshot(page, 'network-phone');
      await page.setViewportSize({ width: 1280, height: 900 });
    },
    STEP_MS,
  );

  it(
    'raises the inbox’s unread count live when a notification arrives, and lowers it when read',
    async () => {
      await page.goto('/inbox');
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      await page.locator('header').getByText('Live', { exact: true }).waitFor();
      // Start from nothing unread, so the count is the new notification's.
      await expect
        .poll(async () => (await call(rig, token, 'GET', '/api/notifications/unread-count')).unread)
        .toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Mark all read' }).click();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Inbox, 0 unread notifications' }).waitFor();

      await registerPlant('Notified nettle');
      await nav.getByRole('link', { name: 'Inbox, 1 unread notification' }).waitFor({ timeout: 60_000 });
      await expect.poll(() => nav.getByRole('link', { name: /^Inbox/ }).textContent()).toBe('Inbox (1)');
      await page.getByRole('status').filter({ hasText: '1 unread notification' }).waitFor();
      const item = page.getByRole('listitem').filter({ hasText: 'Notified nettle' });
      await item.getByText('unread').waitFor();
      await expectAccessible(page);
      await screenshot(page, 'inbox-unread');

      await item.getByRole('button', { name: /^Mark read/ }).click();
      await nav.getByRole('link', { name: 'Inbox, 0 unread notifications' }).waitFor();
      expect((await call(rig, token, 'GET', '/api/notifications/unread-count')).unread).toBe(0);
    },
    STEP_MS,
  );

  it(
    'saves notification preferences per type and channel',
    async () => {
      await page.goto('/settings/notifications');
      await page.getByRole('heading', { level: 1, name: 'Notification settings' }).waitFor();
      const box = page.getByRole('checkbox', { name: 'Your plants registered by email' });
      expect(await box.isChecked()).toBe(false);
      await box.check();
      await page.getByRole('checkbox', { name: 'Demand matches by push' }).uncheck();
      await page.getByRole('button', { name: 'Save settings' }).click();
      // A toast confirms it, in the region of confirmations (F8 reaches it from the keyboard).
      await page
        .getByRole('region', { name: /^Confirmations/ })
        .getByText('Your settings are saved.')
        .waitFor();
      const prefs = (await call(rig, token, 'GET', '/api/notifications/preferences')) as Record<
        string,
        Record<string, boolean>
      >;
      expect(prefs['plant-registered']).toMatchObject({ email: true });
      expect(prefs['demand-match']).toMatchObject({ push: false });
      await page.reload();
      await expect
        .poll(() => page.getByRole('checkbox', { name: 'Your plants registered by email' }).isChecked())
        .toBe(true);
      await expectAccessible(page);
      await screenshot(page, 'notification-settings');
    },
    STEP_MS,
  );

  it(
    'registers the service worker at the root and subscribes this browser to Web Push with the server’s key',
    async () => {
      // Headless Chromium has no push service (its subscribe fails with "permission denied"), so PushManager's
      // subscribe and getSubscription are replaced with a subscription of real P-256 keys; the service worker, its
      // registration and the API calls are real, and a push is delivered to the worker over the DevTools protocol.
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
      const pushContext = await rig.context();
      await pushContext.grantPermissions(['notifications'], { origin: rig.base });
      await pushContext.addInitScript((k) => {
        let current: unknown = null;
        const w = globalThis as unknown as InPage;
        w.PushManager.prototype.subscribe = async (options) => {
          const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
          w.pushKey = [...key];
          const subscription = {
            endpoint: 'https://push.example.test/send/browser-1',
            options: { applicationServerKey: key.buffer, userVisibleOnly: true },
            toJSON: () => ({ endpoint: 'https://push.example.test/send/browser-1', keys: k }),
            unsubscribe: async () => {
              current = null;
              return true;
            },
          };
          current = subscription;
          return subscription;
        };
        w.PushManager.prototype.getSubscription = async () => current;
      }, keys);
      const push = await pushContext.newPage();
      await signIn(push, GROWER);
      await push.goto('/settings/notifications');
      const panel = push.getByRole('region', { name: 'Notifications on this device' });
      await panel.getByText('This browser does not receive push notifications.').waitFor();
      const subscribed = push.waitForResponse(
        (r) => r.url().endsWith('/api/notifications/push/subscriptions') && r.request().method() === 'POST',
      );
      await panel.getByRole('button', { name: 'Turn on push notifications' }).click();
      const answer = await subscribed;
      expect(answer.status()).toBe(201);
      expect(((await answer.json()) as { data: { endpoint: string } }).data.endpoint).toBe(
        'https://push.example.test/send/browser-1',
      );
      await panel.getByText('This browser receives push notifications.').waitFor();

      // The key given to PushManager is the server's VAPID key.
      const vapid = String((await call(rig, token, 'GET', '/api/notifications/push/public-key')).publicKey);
      const given = await push.evaluate(() => (globalThis as unknown as InPage).pushKey ?? []);
      expect(Buffer.from(given).toString('base64url')).toBe(vapid);

      // The worker is the app's /sw.js, served as JavaScript, with the whole app as its scope.
      const worker = await push.evaluate(async () => {
        const r = await (globalThis as unknown as InPage).navigator.serviceWorker.getRegistration('/');
        return { scope: r?.scope, script: r?.active?.scriptURL };
      });
      expect(worker).toEqual({ scope: `${rig.base}/`, script: `${rig.base}/sw.js` });
      const sw = await fetch(`${rig.base}/sw.js`);
      expect(sw.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(sw.headers.get('cache-control')).toBe('no-cache');

      // A push reaching the worker is shown as a notification.
      const cdp = await pushContext.newCDPSession(push);
      const registrations: { registrationId: string; scopeURL: string }[] = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
      await cdp.send('ServiceWorker.enable');
      await expect
        .poll(() => registrations.find((r) => r.scopeURL === `${rig.base}/`), { timeout: 10_000 })
        .toBeTruthy();
      const registrationId = registrations.find((r) => r.scopeURL === `${rig.base}/`)!.registrationId;
      const shown = () =>
        push.evaluate(async () =>
          (
            await (await (globalThis as unknown as InPage).navigator.serviceWorker.getRegistration(
              '/',
            ))!.getNotifications()
          ).map((n) => n.title),
        );
      // A worker that is still starting may miss a message; the push carries its id as the notification's tag, so
      // delivering it again replaces rather than adds.
      await expect
        .poll(
          async () => {
            if ((await shown()).length === 0) {
              await cdp.send('ServiceWorker.deliverPushMessage', {
                origin: rig.base,
                registrationId,
                data: JSON.stringify({
                  id: 'ntf_1',
                  type: 'marketplace',
                  title: 'An offer on your basil',
                  body: '3 € for 5',
                  url: '/inbox',
                }),
              });
            }
            return shown();
          },
          { timeout: 20_000, interval: 1_000 },
        )
        .toEqual(['An offer on your basil']);
      await expectAccessible(push);

      const removed = push.waitForResponse(
        (r) => r.url().includes('/api/notifications/push/subscriptions/') && r.request().method() === 'DELETE',
      );
      await panel.getByRole('button', { name: 'Turn off push notifications' }).click();
      expect((await removed).status()).toBe(200);
      await panel.getByText('This browser does not receive push notifications.').waitFor();
      await pushContext.close();
    },
    STEP_MS,
  );

  it(
    'opens an email’s unsubscribe link on an app page that asks, then turns that email off without a session',
    async () => {
      const link = await emailedLink(rig.dataDir, GROWER.email, '[0-9]/unsubscribe');
      expect(new URL(link).pathname).toBe('/unsubscribe');
      const visitor = await (await rig.context({ width: 390, height: 844 })).newPage();
      await visitor.goto(link);
      await visitor.getByRole('heading', { level: 1, name: 'Unsubscribe' }).waitFor();
      await visitor.getByText('Stop emails about “Welcome”?').waitFor();
      await expectAccessible(visitor);
      await visitor.getByRole('button', { name: 'Stop these emails' }).click();
      await visitor.getByText('Done: you will get no more emails about “Welcome”.').waitFor();
      await screenshot(visitor, 'unsubscribe-phone');
      const prefs = (await call(rig, token, 'GET', '/api/notifications/preferences')) as Record<
        string,
        Record<string, boolean>
      >;
      expect(prefs.welcome).toMatchObject({ email: false });
      await visitor.close();
    },
    STEP_MS,
  );

  it(
    'registers a key made in the browser, signs a transport handoff with it there, and checks the signature',
    async () => {
      const plantId = await registerPlant('Signed sorrel');
      const handoff = String(
        (
          await call(rig, token, 'POST', '/api/transport/distribution', {
            plantId,
            eventTime: new Date().toISOString(),
            from: { latitude: 52.37, longitude: 4.9 },
            to: { latitude: 52.16, longitude: 4.49 },
            transportMode: 'cargo-bike',
          })
        ).id,
      );
      // The statement exists once the audit log has recorded the handoff.
      const statementPath = `/api/transparency/signatures/statement?subjectType=transport-event&subjectId=${handoff}`;
      await expect
        .poll(
          async () =>
            (await fetch(`${rig.base}${statementPath}`, { headers: { authorization: `Bearer ${token}` } })).status,
          {
            timeout: 30_000,
          },
        )
        .toBe(200);
      await page.goto('/network/signatures');
      await page.getByRole('heading', { level: 1, name: 'Signatures' }).waitFor();
      await page.getByLabel('Label (optional)').fill('This laptop');
      await page.getByRole('button', { name: 'Make and register a key' }).click();
      await page.getByText('private key in this browser').waitFor({ timeout: 30_000 });
      const sign = page.getByRole('region', { name: 'Sign' });
      await sign.getByLabel('What to sign').selectOption('transport-event');
      await sign.getByLabel('Its id').fill(handoff);
      await sign.getByRole('button', { name: 'Show the statement' }).click();
      await sign.getByText(`"type":"transport-event"`, { exact: false }).waitFor({ timeout: 30_000 });
      await sign.getByRole('button', { name: 'Sign in this browser' }).click();
      await sign.getByText('Signed and accepted.').waitFor();
      await sign.getByRole('list').getByText('valid', { exact: true }).waitFor();
      await sign.getByRole('button', { name: 'Check in this browser' }).click();
      await sign.getByText('verified in this browser').waitFor();
      const listed = (await call(
        rig,
        token,
        'GET',
        `/api/transparency/signatures?subjectType=transport-event&subjectId=${handoff}`,
      )) as unknown as { status: string; signature: string; publicKey: string }[];
      expect(listed.map((s) => s.status)).toEqual(['valid']);

      // The same signature pasted into the verify form is valid; with another statement it is not.
      const { statement } = (await call(rig, token, 'GET', statementPath)) as { statement: Record<string, unknown> };
      const verify = page.getByRole('form', { name: 'Verify a signature' });
      await verify.getByLabel('Statement (JSON)').fill(JSON.stringify(statement));
      await verify.getByLabel('Signature (base64url)').fill(listed[0]!.signature);
      await verify.getByLabel('Public key (raw base64url or PEM)').fill(listed[0]!.publicKey);
      await verify.getByRole('button', { name: 'Verify' }).click();
      await verify.getByText('The signature is valid.').waitFor();
      await verify.getByLabel('Statement (JSON)').fill(JSON.stringify({ ...statement, id: 'tev_other' }));
      await verify.getByRole('button', { name: 'Verify' }).click();
      await verify.getByText('The signature does not verify.').waitFor();
      await expectAccessible(page);
      await screenshot(page, 'signatures');
    },
    STEP_MS,
  );

  it(
    'downloads the public history in each format; the compliance report is for administrators',
    async () => {
      await page.goto('/network/exports');
      await page.getByRole('heading', { level: 1, name: 'Exports and reports' }).waitFor();
      await page.getByText('The compliance report is for administrators.', { exact: false }).waitFor();
      for (const [button, name] of [
        ['Download JSON', 'rootline-events.json'],
        ['Download CSV', 'rootline-events.csv'],
        ['Download EPCIS 2.0 (transport)', 'rootline-events.epcis.jsonld'],
      ] as const) {
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: button }).click();
        const file = await download;
        expect(file.suggestedFilename()).toBe(name);
        await page.getByText(`Downloaded ${name}.`).waitFor();
      }
      await expectAccessible(page);

      const admin = await (await rig.context()).newPage();
      await signIn(admin, TEST_ADMIN);
      await admin.goto('/network/exports');
      const report = admin.getByRole('region', { name: 'Compliance report' });
      await report.getByText('Audit log re-verified').waitFor({ timeout: 60_000 });
      await expect.poll(() => report.getByText('yes').count()).toBeGreaterThanOrEqual(2);
      await expectAccessible(admin);
      await screenshot(admin, 'compliance-report');
      await admin.close();
    },
    STEP_MS,
  );
});
