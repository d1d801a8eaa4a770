import { signInOverHttp } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, call, RIG_START_MS, startBrowserRig } from './support/browser.js';

// Live updates as a person sees them: the page follows what happens elsewhere (another device, an API client, an
// administrator) without a reload, over the WebSocket the app opens with its session cookie.

const GROWER = { name: 'Lin Live', email: `lin-${Date.now()}@example.org`, password: 'a live and kicking passphrase' };

describe('live updates in the browser', () => {
  let rig: BrowserRig;
  let page: Page;
  let token: string;
  let userId: string;
  let plantId: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(GROWER),
    });
    token = await signInOverHttp(rig.base, GROWER.email, GROWER.password);
    const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
    userId = session.user.id;
    const plant = await call(rig, token, 'POST', '/api/plants/register', {
      commonName: 'Live lettuce',
      location: { latitude: 52.37, longitude: 4.9 },
      owner: { id: userId, name: GROWER.name },
    });
    plantId = String(plant.id);
    page = await (await rig.context()).newPage();
    await page.goto('/signin');
    await page.getByLabel('Email').fill(GROWER.email);
    await page.getByLabel('Password').fill(GROWER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it('shows a journey event recorded elsewhere on the open plant page, without a reload', async () => {
    await page.goto(`/plants/${plantId}`);
    await page.getByRole('heading', { level: 1, name: 'Live lettuce' }).waitFor();
    await page.locator('header').getByText('Live', { exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Journey' }).click();
    const journey = page.getByRole('region', { name: 'Journey' });
    await journey.getByText('No journey events yet.').waitFor();
    // A mark on the page's window: a reload would wipe it.
    await page.evaluate("window.liveMark = 'kept'");
    await call(rig, token, 'POST', '/api/transport/distribution', {
      plantId,
      eventTime: new Date().toISOString(),
      from: { latitude: 52.37, longitude: 4.9 },
      to: { latitude: 52.16, longitude: 4.49 },
      transportMode: 'cargo-bike',
    });
    await journey.getByText(/^1 event ·/).waitFor({ timeout: 60_000 });
    expect(await page.evaluate('window.liveMark')).toBe('kept');
  });

  it('follows a role change made by an administrator: the open page shows the new role, and stays live', async () => {
    await page.goto('/account');
    await page.getByText('Your role: user').waitFor();
    await page.locator('header').getByText('Live', { exact: true }).waitFor();
    await call(rig, rig.adminToken, 'PUT', `/api/admin/users/${userId}/role`, { role: 'FARM_MANAGER' });
    await page.getByText('Your role: farm manager').waitFor({ timeout: 30_000 });
    // The socket the role change closed is opened again, with the new role.
    await page.locator('header').getByText('Live', { exact: true }).waitFor();
  });
});
