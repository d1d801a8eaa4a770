import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { SERVICES } from '@rootline/scripts/services';
import { freePort, signInOverHttp } from '@rootline/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserRig,
  call,
  expectAccessible,
  RIG_START_MS,
  screenshot,
  startBrowserRig,
} from './support/browser.js';

// A plant propagated here from a plant on another node (its peer "north-farm"), as its Lineage tab shows it: the
// parent drawn with the other node's name and the mark that its proof verified there.

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const raw = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).subarray(-32);
const vkey = (name: string, type: number, k: KeyObject) =>
  `${name}+${sha256(Buffer.from(`${name}\n`), Buffer.from([type]), raw(k))
    .subarray(0, 4)
    .toString('hex')}+${Buffer.concat([Buffer.from([type]), raw(k)]).toString('base64')}`;
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();

const GROWER = { name: 'Rita Remote', email: `rita-${Date.now()}@example.org`, password: 'a cutting from up north' };

describe('a parent on another node, in the browser', () => {
  let north: TestPlatform;
  let rig: BrowserRig;
  let page: Page;
  let cloneId: string;

  beforeAll(async () => {
    // The other node: its own ledger, plants and log, with keys this node is given out of band.
    const log = generateKeyPairSync('ed25519');
    const witness = generateKeyPairSync('ed25519');
    const origin = 'north.example.test/api/transparency/log';
    const witnessName = 'north.example.test/api/transparency/witness';
    const port = await freePort();
    north = await startTestPlatform(
      SERVICES.filter((s) => ['chain-miner', 'plants', 'transparency'].includes(s.name)),
      {
        CHAIN_DIFFICULTY: '8',
        AUDIT_SIGNING_KEY: pem(log.privateKey),
        AUDIT_LOG_ORIGIN: origin,
        WITNESS_SIGNING_KEY: pem(witness.privateKey),
        WITNESS_NAME: witnessName,
      },
    );
    await north.app.listen({ host: '127.0.0.1', port });
    const grower = await north.token('USER', 'usr_north', 'Nora North');
    const made = await north.http('POST', '/api/plants/register', {
      token: grower,
      body: {
        commonName: 'Heirloom tomato',
        location: { latitude: 53.2, longitude: 6.56 },
        owner: { id: 'usr_north', name: 'Nora North' },
      },
    });
    expect(made.status).toBe(201);
    const parentId = made.body.data.id as string;
    // The other node logs the registration; only then does its bundle carry an audit proof.
    for (let tries = 0; ; tries++) {
      const proof = await north.http('GET', `/api/transparency/proofs/plants/${parentId}`);
      if (proof.status === 200 && proof.body.data.auditEntry) break;
      if (tries > 300) throw new Error('the other node did not log the registration');
      await new Promise((r) => setTimeout(r, 100));
    }

    rig = await startBrowserRig({
      PEERS: `north-farm http://127.0.0.1:${port} ${vkey(origin, 1, log.publicKey)} ${vkey(witnessName, 4, witness.publicKey)}`,
    });
    await fetch(`${rig.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(GROWER),
    });
    const token = await signInOverHttp(rig.base, GROWER.email, GROWER.password);
    const session = (await call(rig, token, 'GET', '/api/auth/session')) as { user: { id: string } };
    const clone = await call(rig, token, 'POST', '/api/plants/clone', {
      remoteParent: { peer: 'north-farm', plantId: parentId },
      propagationType: 'cutting',
      newPlant: { location: { latitude: 52.09, longitude: 5.12 }, owner: { id: session.user.id } },
    });
    cloneId = String(clone.id);
    page = await (await rig.context()).newPage();
    await page.goto('/signin');
    await page.getByLabel('Email').fill(GROWER.email);
    await page.getByLabel('Password').fill(GROWER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'My plants' }).waitFor();
  }, RIG_START_MS);

  afterAll(async () => {
    await rig?.stop();
    await north?.stop();
  });

  it('draws the parent on the other node with its name and “verified on north-farm”, and lists it', async () => {
    await page.goto(`/plants/${cloneId}`);
    await page.getByRole('heading', { level: 1, name: 'Heirloom tomato' }).waitFor();
    await page.getByRole('tab', { name: 'Lineage' }).click();
    const graph = page.getByRole('region', { name: 'Lineage graph' });
    await expect.poll(() => graph.getAttribute('data-nodes')).toBe('2');
    expect(await graph.getAttribute('data-edges')).toBe('1');
    const remote = graph.locator('.react-flow__node', { hasText: 'on north-farm' });
    await remote.waitFor();
    expect(await remote.getAttribute('aria-label')).toBe(
      'Heirloom tomato, on the node north-farm, verified on north-farm',
    );
    expect(await remote.textContent()).toContain('verified on north-farm');
    expect(await graph.getByText('cutting').count()).toBe(1);
    await page.getByText('The family as a list').click();
    const link = page.getByRole('link', { name: 'Heirloom tomato' });
    expect(await link.getAttribute('href')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/plants\/plt_/);
    await expectAccessible(page);
    await screenshot(page, 'lineage-remote-parent');
    // Selecting the other node's plant stays here: it is not a page of this node.
    await remote.click();
    expect(new URL(page.url()).pathname).toBe(`/plants/${cloneId}`);
  });
});
