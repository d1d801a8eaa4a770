import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ece from 'http_ece';

/** A message the push endpoint received, decrypted as the browser holding the subscription would. */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  payload: Record<string, unknown>;
}

/** A browser's side of one subscription: its key pair and secret, and the JSON it would send to the server. */
export interface TestBrowser {
  ecdh: ECDH;
  auth: string;
  subscription(endpoint: string): { endpoint: string; keys: { p256dh: string; auth: string } };
}

export function testBrowser(): TestBrowser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    ecdh,
    auth,
    subscription: (endpoint) => ({ endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } }),
  };
}

/**
 * A local HTTPS push service (self-signed certificate for 127.0.0.1, made with openssl): it decrypts what it
 * receives with the browser key registered for the path, answers 201, and 410 for paths under /gone/.
 */
export interface TestPushService {
  origin: string;
  caFile: string;
  received: ReceivedPush[];
  browsers: Map<string, TestBrowser>;
  stop(): Promise<void>;
}

export async function startTestPushService(): Promise<TestPushService> {
  const dir = await mkdtemp(join(tmpdir(), 'push-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const received: ReceivedPush[] = [];
  const browsers = new Map<string, TestBrowser>();
  const server: Server = createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (path.startsWith('/gone/')) {
        res.writeHead(410).end();
        return;
      }
      const browser = browsers.get(path);
      if (!browser) {
        res.writeHead(404).end();
        return;
      }
      const plain = ece.decrypt(Buffer.concat(chunks), {
        version: 'aes128gcm',
        privateKey: browser.ecdh,
        authSecret: browser.auth,
      });
      received.push({ path, headers: req.headers, payload: JSON.parse(plain.toString('utf8')) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    caFile: cert,
    received,
    browsers,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Checks a VAPID Authorization header (`vapid t=<JWT>, k=<public key>`, RFC 8292) as a push service does: the
 * ES256 signature against the key, the audience and the expiry. Answers the token's claims.
 */
export function verifyVapid(header: string | undefined, audience: string, nowSeconds: number) {
  const m = /^vapid t=([^,]+),\s*k=(\S+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a VAPID header: ${header}`);
  const [, jwt, k] = m as unknown as [string, string, string];
  const [h, c, s] = jwt.split('.') as [string, string, string];
  const raw = Buffer.from(k, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${c}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (claims.aud !== audience) throw new Error(`VAPID audience ${claims.aud}, expected ${audience}`);
  if (claims.exp <= nowSeconds || claims.exp > nowSeconds + 24 * 3600) throw new Error('VAPID expiry out of range');
  return { publicKey: k, claims };
}
