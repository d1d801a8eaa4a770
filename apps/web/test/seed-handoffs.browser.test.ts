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

// Seed handed across nodes: a holder on another node ("north-farm") hands seed to the grower here, who receives it
// by its handoff id; the grower hands seed of their own lot on to north-farm and is shown the id to pass on.

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const raw = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).subarray(-32);
const vkey = (name: string, type: number, k: KeyObject) =>
  `${name}+${sha256(Buffer.from(`${name}\n`), Buffer.from([type]), raw(k))
    .subarray(0, 4)
    .toString('hex')}+${Buffer.concat([Buffer.from([type]), raw(k)]).toString('base64')}`;
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();

const GROWER = { name: 'Hana Handoff', email: `hana-${Date.now()}@example.org`, password: 'seed from up north' };

describe('seed handed across nodes, in the browser', () => {
  let north: TestPlatform;
  let rig: BrowserRig;
  let page: Page;
  let handoffId: string;
  let northLotId: string;
  let ownLotId: string;

  beforeAll(async () => {
    // The other node: its own ledger, journeys and log, with keys this node is given out of band. It names this
    // node as a peer (unreached here: what it hands on is verified by this node, not the other way round).
    const log = generateKeyPairSync('ed25519');
    const witness = generateKeyPairSync('ed25519');
    const origin = 'north.example.test/api/transparency/log';
    const witnessName = 'north.example.test/api/transparency/witness';
    const port = await freePort();
    const home = generateKeyPairSync('ed25519').publicKey;
    north = await startTestPlatform(
      SERVICES.filter((s) => ['chain-miner', 'plants', 'transport', 'transparency'].includes(s.name)),
      {
        CHAIN_DIFFICULTY: '8',
        AUDIT_SIGNING_KEY: pem(log.privateKey),
        AUDIT_LOG_ORIGIN: origin,
        WITNESS_SIGNING_KEY: pem(witness.privateKey),
        WITNESS_NAME: witnessName,
        PEERS: `home http://127.0.0.1:${await freePort()} ${vkey('home.test/api/transparency/log', 1, home)} ${vkey('home.test/api/transparency/witness', 4, home)}`,
      },
    );
    await north.app.listen({ host: '127.0.0.1', port });
    const holder = await north.token('USER', 'usr_north', 'Nora North');
    const lot = await north.http('POST', '/api/seed-lots', {
      token: holder,
      body: { crop: 'Bean', variety: 'Borlotti', harvestYear: 2025, quantity: { amount: 120, unit: 'seeds' } },
    });
    expect(lot.status).toBe(201);
    northLotId = lot.body.data.id;
    const handed = await north.http('POST', `/api/seed-lots/${northLotId}/handoffs`, {
      token: holder,
      body: { peer: 'home', quantity: { amount: 30 }, recipient: GROWER.name },
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(201);
    handoffId = handed.body.data.id;
    // The other node logs the handoff's event; only then does its bundle carry an audit proof.
    for (let tries = 0; ; tries++) {
      const proof = await north.http('GET', `/api/transparency/proofs/transactions/${handed.body.data.transactionId}`);
      if (proof.status === 200 && proof.body.data.auditEntry) break;
      if (tries > 300) throw new Error('the other node did not log the handoff');
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
    const own = await call(rig, token, 'POST', '/api/seed-lots', {
      crop: 'Tomato',
      variety: 'Brandywine',
      harvestYear: 2025,
      quantity: { amount: 80, unit: 'seeds' },
    });
    ownLotId = String(own.id);
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

  it('receives seed handed from north-farm by its handoff id, and the new lot says where it came from', async () => {
    await page.goto('/seed-lots');
    const form = page.getByRole('form', { name: 'Receive seed from another node' });
    await form.waitFor();
    await expect.poll(() => form.getByLabel('Node').inputValue()).toBe('north-farm');
    await form.getByLabel('Handoff id').fill(handoffId);
    await form.getByRole('button', { name: 'Receive seed' }).click();
    await form.getByText('Received: a new lot of 30 seeds.').waitFor({ timeout: 30_000 });
    await expectAccessible(page);
    await screenshot(page, 'seed-handoff-received');
    await form.getByRole('link', { name: 'Open the lot' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bean ‘Borlotti’' }).waitFor();
    const origin = page.getByRole('link', { name: `handed from ${northLotId} on north-farm, verified` });
    await origin.waitFor();
    expect(await origin.getAttribute('href')).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/seed-lots/${northLotId}$`),
    );
    // The lot lists the handoff it came in by.
    const history = page.getByRole('region', { name: 'Handed across nodes' });
    expect(await history.textContent()).toContain(handoffId);
    await expectAccessible(page);
    await screenshot(page, 'seed-lot-received-from-another-node');
  });

  it('hands seed of a lot to a grower on north-farm and shows the handoff id to pass on', async () => {
    await page.goto(`/seed-lots/${ownLotId}`);
    const form = page.getByRole('form', { name: 'Hand to a grower on another node' });
    await form.waitFor();
    await expect.poll(() => form.getByLabel('Node').inputValue()).toBe('north-farm');
    await form.getByLabel('Quantity (seeds)').fill('15');
    await form.getByLabel('Recipient').fill('Nora North');
    await form.getByRole('button', { name: 'Hand on' }).click();
    await form.getByText('Handed 15 seeds to Nora North on north-farm.').waitFor({ timeout: 30_000 });
    const id = await form.getByLabel('Handoff id').inputValue();
    expect(id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    // More than the lot holds now is refused in words.
    await form.getByLabel('Quantity (seeds)').fill('500');
    await form.getByLabel('Recipient').fill('Nora North');
    await form.getByRole('button', { name: 'Hand on' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByRole('alert').textContent()).toContain('The lot holds less seed than this');
    await expectAccessible(page);
    await screenshot(page, 'seed-handoff-outgoing');
  });
});
