import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { service as chainMiner } from '@rootline/chain-miner';
import { PLACEHOLDER_GS1_COMPANY_PREFIX, plantEpc } from '@rootline/domain';
import { buildGateway, GatewayConfig, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, loadConfig } from '@rootline/host';
import { service as notify } from '@rootline/notify';
import { service as plants } from '@rootline/plants';
import { type ParsedMail, plantInput, startTestSmtp, TEST_JWT_SECRET, type TestSmtp } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import { service as transport } from '@rootline/transport';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery staple';
const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'rootline.example' };

/**
 * Links the services build (QR codes, certificates, EPCIS exports, emails) start with PUBLIC_URL when it is set,
 * else with the address the request came to: its Host, or X-Forwarded-Proto/-Host from a trusted proxy only. The
 * gateways listen on ports the system picks (never 3000) and are called over real HTTP from 127.0.0.1.
 */
describe('public URLs from the setting or the request', () => {
  let p: TestPlatform;
  let smtp: TestSmtp;
  let dataDir: string;
  /** Trusts 127.0.0.1 as a proxy (TRUSTED_PROXIES). */
  let trusting: string;
  /** Trusts only 10.0.0.0/8: the test's forwarded headers come from an untrusted peer. */
  let untrusting: string;
  /** PUBLIC_URL set (and 127.0.0.1 trusted): the setting wins over forwarded headers. */
  let configured: string;
  const others: FastifyInstance[] = [];
  let grower: string;
  let plantId: string;

  /** Another gateway replica on the same bus and database, with its own settings, listening on a free port. */
  async function gateway(env: Record<string, string>): Promise<string> {
    const config = loadConfig(GatewayConfig, {
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      BCRYPT_COST: '4',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
      RATE_LIMIT_SESSION_PER_MINUTE: '100000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      ...env,
    });
    const app = await buildGateway({ bus: p.bus, log: createLogger('test', 'silent'), config, database: p.database });
    others.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

  /** GET over HTTP with any headers, Host included (fetch would not send a Host of our choosing). */
  const get = (base: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<string>((resolve, reject) => {
      const req = request(`${base}${path}`, { headers: { authorization: `Bearer ${grower}`, ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${res.statusCode} ${text}`))));
      });
      req.on('error', reject);
      req.end();
    });
  /** What the plant's QR code encodes: its Digital Link (ADR 275). */
  const qrUrl = async (base: string, headers?: Record<string, string>) =>
    JSON.parse(await get(base, `/api/transport/qr/${plantId}`, headers)).data.payload as string;
  const certificateUrl = async (base: string, headers?: Record<string, string>) =>
    JSON.parse(await get(base, `/api/transparency/certificate/${plantId}`, headers)).data.certificate
      .verificationUrl as string;
  const epcisNamespace = async (base: string, headers?: Record<string, string>) => {
    const doc = JSON.parse(await get(base, '/api/transparency/export?format=epcis', headers));
    return (doc['@context'] as [string, { rootline: string }])[1].rootline;
  };

  /** Asks for a password reset at `base` and returns the link of the email that arrives. */
  async function resetLink(base: string, email: string, headers: Record<string, string> = {}): Promise<string> {
    const res = await fetch(`${base}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    const find = () =>
      smtp.received.find((m: ParsedMail) => JSON.stringify(m.to).includes(email) && /Reset/.test(m.subject ?? ''));
    await expect.poll(find, { timeout: 15_000 }).toBeTruthy();
    const link = /(\S+\/reset-password\?token=\S+)/.exec(find()?.text ?? '');
    expect(link).toBeTruthy();
    return link?.[1] as string;
  }

  async function register(base: string, email: string): Promise<void> {
    const res = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, name: 'Ada Grower' }),
    });
    expect(res.status).toBe(201);
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    dataDir = await mkdtemp(join(tmpdir(), 'public-urls-'));
    p = await startTestPlatform([chainMiner, plants, transport, transparency, notify], {
      CHAIN_DIFFICULTY: '8',
      TRUSTED_PROXIES: '127.0.0.1, ::1',
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      NOTIFY_POLL_MS: '50',
      UNSUBSCRIBE_SECRET: 'u'.repeat(32),
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    });
    trusting = await p.app.listen({ port: 0, host: '127.0.0.1' });
    untrusting = await gateway({ TRUSTED_PROXIES: '10.0.0.0/8' });
    configured = await gateway({ TRUSTED_PROXIES: '127.0.0.1', PUBLIC_URL: 'https://public.example/' });
    grower = await p.token('USER', 'usr_grower', 'Ada Grower');
    const plant = await p.http('POST', '/api/plants/register', {
      token: grower,
      body: plantInput({ commonName: 'Cherry tomato', owner: { id: 'usr_grower', name: 'Ada Grower' } }),
    });
    expect(plant.status).toBe(201);
    plantId = plant.body.data.id;
  });
  afterAll(async () => {
    for (const app of others) await app.close();
    await p?.stop();
    await smtp?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('uses the origin of the request: the QR code, the certificate, the trace link and EPCIS identifiers', async () => {
    expect(trusting).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(trusting).not.toContain(':3000');
    // The plant's GS1 Digital Link at that address (ADR 275), which redirects to the public verification page there.
    const link = plantEpc(plantId, trusting, PLACEHOLDER_GS1_COMPANY_PREFIX);
    expect(await qrUrl(trusting)).toBe(link);
    expect(await certificateUrl(trusting)).toBe(link);
    expect(await epcisNamespace(trusting)).toBe(`${trusting}/ns/epcis#`);
    const redirect = await fetch(link, { redirect: 'manual' });
    expect(redirect.status).toBe(307);
    expect(new URL(redirect.headers.get('location') ?? '', link).href).toBe(
      `${trusting}/api/transport/trace/${plantId}`,
    );
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('uses X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy', async () => {
    const trace = plantEpc(plantId, 'https://rootline.example', PLACEHOLDER_GS1_COMPANY_PREFIX);
    expect(await qrUrl(trusting, FORWARDED)).toBe(trace);
    expect(await certificateUrl(trusting, FORWARDED)).toBe(trace);
    expect(await epcisNamespace(trusting, FORWARDED)).toBe('https://rootline.example/ns/epcis#');
  });

  it('ignores the same headers from an address that is not a trusted proxy', async () => {
    const trace = plantEpc(plantId, untrusting, PLACEHOLDER_GS1_COMPANY_PREFIX);
    expect(await qrUrl(untrusting, FORWARDED)).toBe(trace);
    expect(await certificateUrl(untrusting, FORWARDED)).toBe(trace);
  });

  it('uses PUBLIC_URL when it is set, whatever the request says', async () => {
    const trace = plantEpc(plantId, 'https://public.example', PLACEHOLDER_GS1_COMPANY_PREFIX);
    expect(await qrUrl(configured)).toBe(trace);
    expect(await qrUrl(configured, FORWARDED)).toBe(trace);
    expect(await certificateUrl(configured, { host: 'elsewhere.example' })).toBe(trace);
    expect(await epcisNamespace(configured)).toBe('https://public.example/ns/epcis#');
  });

  it('ignores a Host that is not a host name: links fall back to the default address', async () => {
    // Node refuses most odd Host headers itself; one with a path gets through and is not used as an address.
    expect(await qrUrl(untrusting, { host: 'rootline.example/evil' })).toBe(
      plantEpc(plantId, 'http://localhost:3000', PLACEHOLDER_GS1_COMPANY_PREFIX),
    );
  });

  it('links emails to the address of the request that caused them, or PUBLIC_URL', async () => {
    await register(trusting, 'direct@example.org');
    expect(await resetLink(trusting, 'direct@example.org')).toMatch(
      new RegExp(`^${trusting.replaceAll('.', '\\.')}/reset-password\\?token=`),
    );
    await register(trusting, 'proxied@example.org');
    expect(await resetLink(trusting, 'proxied@example.org', FORWARDED)).toMatch(
      /^https:\/\/rootline\.example\/reset-password\?token=/,
    );
    await register(configured, 'configured@example.org');
    expect(await resetLink(configured, 'configured@example.org', FORWARDED)).toMatch(
      /^https:\/\/public\.example\/reset-password\?token=/,
    );
    // The welcome email of an account registered through the proxy unsubscribes there too.
    const welcome = () =>
      smtp.received.find((m) => JSON.stringify(m.to).includes('direct@example.org') && /Welcome/.test(m.subject ?? ''));
    await expect.poll(welcome, { timeout: 15_000 }).toBeTruthy();
    expect(welcome()?.text).toContain(`${trusting}/unsubscribe?token=`);
  });
});
