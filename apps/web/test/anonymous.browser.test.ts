import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, expectAccessible, RIG_START_MS, screenshot, startBrowserRig } from './support/browser.js';

describe('/plants/register-anonymous: the key pair is made in the browser and only its public key is sent', () => {
  let rig: BrowserRig;
  let page: Page;
  const sent: string[] = [];

  beforeAll(async () => {
    rig = await startBrowserRig();
    page = await (await rig.context({ width: 390, height: 844 })).newPage();
    // Everything the page sends: URL, headers and body of every request.
    page.on('request', (r) =>
      sent.push(`${r.method()} ${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`),
    );
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  });

  it('registers a plant with no account, offers the private key as a file and a QR code, and never sends it', async () => {
    await page.goto('/plants/register-anonymous');
    await page.getByRole('heading', { level: 1, name: 'Register a plant anonymously' }).waitFor();
    await page.getByLabel('Common name').fill('Wild garlic');
    // The search by name would carry any session the browser has: not offered here.
    expect(await page.getByLabel('Find a place').count()).toBe(0);
    expect(await page.getByText('Finding a place by name is not offered here').count()).toBe(1);
    await page.getByRole('region', { name: 'Map: click to pick the location' }).click({ position: { x: 190, y: 90 } });
    expect(await page.getByLabel('Latitude').inputValue()).toMatch(/^-?\d+\.\d{5}$/);
    // Typed coordinates take over from the click.
    await page.getByLabel('Latitude').fill('52.1601');
    await page.getByLabel('Longitude').fill('4.4970');
    await page.getByLabel('Privacy of the location').selectOption('city');
    expect(await page.getByText('about 10 km').count()).toBe(1);
    await page.getByLabel('Pseudonym (optional)').fill('forager');
    await expectAccessible(page);
    await screenshot(page, 'anonymous-form');

    await page.getByRole('button', { name: 'Make my key and register' }).click();
    await page.getByRole('heading', { name: 'Your plant is on the ledger' }).waitFor({ timeout: 60_000 });
    const facts = (await page.locator('dl').textContent()) ?? '';
    expect(facts).toMatch(/plt_[0-9A-Z]+/);
    expect(facts).toMatch(/anon_[0-9A-Z]{26}/);
    expect(facts).toMatch(/rlw_[0-9a-f]{40}/);
    expect(facts).toContain('forager');
    expect(facts).toMatch(/[0-9a-f]{64}/);
    expect(await page.getByRole('img', { name: 'QR code of your private key' }).count()).toBe(1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the private key' }).click(),
    ]);
    const saved = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(saved).toMatchObject({ algorithm: 'Ed25519', plantId: expect.stringMatching(/^plt_/) });
    await page.getByRole('button', { name: 'Show the private key' }).click();
    expect(await page.getByLabel('Private key', { exact: true }).inputValue()).toBe(saved.privateKey);

    // The saved private key signs for the public key Rootline holds for the plant's wallet.
    const plant = await fetch(`${rig.base}/api/plants/${saved.plantId}`, {
      headers: { authorization: `Bearer ${rig.adminToken}` },
    }).then((r) => r.json() as Promise<{ data: { walletAddress: string } }>);
    expect(plant.data.walletAddress).toBe(saved.walletAddress);
    const challenge = Buffer.from(`rootline-ownership:${saved.plantId}:${saved.walletAddress}`);
    const signature = sign(
      null,
      challenge,
      createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: saved.privateKey, x: saved.publicKey }, format: 'jwk' }),
    );
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: saved.publicKey }, format: 'jwk' });
    expect(verify(null, challenge, publicKey, signature)).toBe(true);

    // No request the page made carries the private key, in any form.
    const seed = Buffer.from(saved.privateKey, 'base64url');
    const forms = [saved.privateKey, seed.toString('base64'), seed.toString('hex')];
    expect(sent.some((s) => s.includes('/api/plants/register-anonymous'))).toBe(true);
    for (const form of forms) expect(sent.filter((s) => s.includes(form))).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'anonymous-result');
  });
});
