import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Permission, type Role, roleHas } from '@rootline/contracts';
import { RESPONSE_EXAMPLES_FILE, type RecordedExample } from '@rootline/gateway/openapi-examples';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { recordDemandHistory, settleDemandHouseholds } from '@rootline/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import canonicalize from 'canonicalize';
import { sql } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../src/services.js';

/**
 * The example walk: the OpenAPI document is a tested contract. Every operation in it carries a request example
 * (body and parameters) and a success-response example; this test calls every operation with its documented
 * example against Rootline on NATS and PostgreSQL, in the order a person meets them reading the README and the
 * docs pages it links (an operation whose example names a record not made yet runs as soon as it is; operations no
 * page names follow; deletes last; ADR 198), with the ids made earlier in the walk in place of the ids in the
 * examples, as a signed-in user of a role that holds the operation's permission. Each answer must have the documented success status and validate against the
 * document's schema for it. An operation without examples fails; a new operation joins by having them.
 *
 * `RECORD_EXAMPLES=1` also writes the answers, with secrets blanked, into the gateway's recorded response
 * examples, which the document shows wherever an operation has no hand-written one.
 */

interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  examples?: unknown[];
  example?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  const?: unknown;
}
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}
interface OpenApiOperation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
  'x-permission'?: Permission;
}
interface Document {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Schema> };
}

type Phase = 'create' | 'read' | 'update' | 'act' | 'delete';
const PHASES: Phase[] = ['create', 'read', 'update', 'act', 'delete'];

interface Operation {
  method: string;
  path: string;
  op: OpenApiOperation;
  status: number;
  phase: Phase;
}

interface Answer {
  status: number;
  type: string;
  text: string;
  json?: unknown;
}

/** The people of the examples: their ids are the examples' own, so bodies naming them run as written. */
const ADA = 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MD';
const BOB = 'usr_01HZX3K6Q2W8N4B7T5R9V0C1ME';
const CY = 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MF';
const DEE = 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MG';
const ROOT = 'usr_01HZX3K6Q2W8N4B7T5R9V0C1MA';
const ROLES: Record<string, Role> = {
  [ADA]: 'FARM_MANAGER',
  [BOB]: 'USER',
  [CY]: 'GROWER',
  [DEE]: 'USER',
  [ROOT]: 'ADMIN',
};
/** A second session of Ada's, for the operation that ends the session it is called with. */
const ADA_LEAVING = 'ada-leaving';

/**
 * Operations whose caller is another party than the owner of the records they name: the buyer makes, withdraws,
 * reviews and lists offers on Ada's listing; the recipient of a handoff accepts it.
 */
const CALLER: Record<string, string> = {
  makeOffer: BOB,
  listBuyerOffers: BOB,
  withdrawOffer: BOB,
  reviewOffer: BOB,
  acceptHandoff: BOB,
  signOut: ADA_LEAVING,
  // Bob joins Ada's organization by her invitation, and leaves it; Cy declines one.
  acceptOrganizationInvitation: BOB,
  leaveOrganization: BOB,
  declineOrganizationInvitation: CY,
  // Ada offers a plant to Bob, who accepts or declines it.
  acceptTransfer: BOB,
  declineTransfer: BOB,
  // Ada's lot lends seed to Bob, who returns seed saved from a plant he grew from it.
  returnSeedLoan: BOB,
};

/** Demand is shown over at least five households: four more people state the example's preferences too. */
const ALSO_AS: Record<string, string[]> = {
  savePreference: [BOB, CY, DEE, ROOT],
};

/**
 * What time alone would have done after an operation: households count in demand two weeks after they settle, and
 * weekly signals of past weeks recorded the history a forecast reads.
 */
const AFTER: Record<string, () => Promise<void>> = {
  // The node is its own peer (PEERS): a peer's bundle of the plant needs its registration in the log.
  registerPlant: async () => {
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${base}/api/transparency/proofs/plants/${made.get('plt')}`);
      if (res.ok && ((await res.json()) as { data: { auditEntry: unknown } }).data.auditEntry) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the log never recorded the registration of ${made.get('plt')}`);
  },
  savePreference: () => settleDemandHouseholds(p.infra.pg.url),
  generateDemandSignal: () =>
    recordDemandHistory(
      p.infra.pg.url,
      'tomato',
      'NL/amsterdam',
      [6, 7, 6.5].map((demandKg, i) => ({ weekStart: `2026-01-${String(5 + 7 * i).padStart(2, '0')}`, demandKg })),
    ),
};

/**
 * Operations that need a record in a state the walk's order does not give by itself, and the operation that puts
 * it there first (on the same record).
 */
const BEFORE: Record<string, string> = {
  reviewOffer: 'acceptOffer',
  // A member's role is changed, a member removed or leaving: Bob, who joins first.
  changeOrganizationMemberRole: 'acceptOrganizationInvitation',
  removeOrganizationMember: 'acceptOrganizationInvitation',
  leaveOrganization: 'acceptOrganizationInvitation',
};

/** Deletes of a record that a later delete takes with it (a named query's subscriptions): they come first. */
const DELETED_FIRST = new Set(['deleteEpcisSubscription']);

/** Operations that use their record up although they make one (a harvest closes its batch). */
const FRESH = new Set(['harvestBatch', 'dissolveOrganization']);

/** Acts that leave their record as it was (a test delivery): they use the walk's first record. */
const KEEPS = new Set(['testWebhook', 'redeliverWebhookDelivery']);
const byId = (operationId: string) => operations().find((x) => x.op.operationId === operationId) as Operation;

/** Operations whose record is the one another operation made, not the first of its kind. */
const RECORD_OF: Record<string, Record<string, string>> = {
  acceptHandoff: { tev: 'recordDistribution' },
  completeUpload: { fil: 'presignUpload' },
};

/** Values of parameters that name no record of the walk's own making, from the answers seen so far. */
const FROM_ANSWERS: Record<string, string> = {
  hash: 'blockHash',
  blockHash: 'blockHash',
  txId: 'txId',
};

/** Prefixes of ids a client chooses itself (recipes, accounts): used as written. Seed lots are minted (ADR 270). */
const CLIENT_CHOSEN = new Set(['rcp', 'usr']);
const ID = /^([a-z]{3})_[A-Za-z0-9_-]{6,}$/;

/** The walk's own Ed25519 key: what the signature operations register and sign with. */
const key = generateKeyPairSync('ed25519');
const rawKey = key.publicKey.export({ format: 'jwk' }).x as string;
const signed = (text: string) => sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64url');

/**
 * Operations whose body holds what no fixed example can: a proof or a signature by the caller's own key over a
 * value the server chose, or the one-time token of an email. The example's other fields are used as written.
 */
const BODIES: Record<string, (example: Record<string, unknown>) => Promise<Record<string, unknown>>> = {
  // A plant of its own, given away when Bob accepts (the walk's first plant stays Ada's for what follows).
  proposeTransfer: async (ex) => {
    const res = await fetch(`${base}/api/plants/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.get(ADA)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ commonName: 'Basil', location: { latitude: 52.09, longitude: 5.12 }, owner: { id: ADA } }),
    });
    if (res.status !== 201) throw new Error(`a plant to give: ${res.status} ${await res.text()}`);
    return { ...ex, subjectId: ((await res.json()) as { data: { id: string } }).data.id };
  },
  // The plant Bob grew from the loaned lot: the returned seed's parent.
  returnSeedLoan: async (ex) => {
    const res = await fetch(`${base}/api/plants/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.get(BOB)}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        commonName: 'Tomato',
        location: { latitude: 52.09, longitude: 5.12 },
        owner: { id: BOB },
        seedLotId: made.get('lot'),
      }),
    });
    if (res.status !== 201) throw new Error(`a plant grown from the loan: ${res.status} ${await res.text()}`);
    return { ...ex, parentPlantIds: [((await res.json()) as { data: { id: string } }).data.id] };
  },
  // Seed of a lot of Ada's handed to the node's peer (itself), once its transaction is in the log: the handoff received.
  receiveSeedHandoff: async (ex) => {
    const lot = await fetch(`${base}/api/seed-lots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.get(ADA)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ crop: 'bean', harvestYear: 2026, quantity: { amount: 50, unit: 'seeds' } }),
    });
    if (lot.status !== 201) throw new Error(`a lot to hand on: ${lot.status} ${await lot.text()}`);
    const lotId = ((await lot.json()) as { data: { id: string } }).data.id;
    const res = await fetch(`${base}/api/seed-lots/${lotId}/handoffs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.get(ADA)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ peer: 'north-farm', quantity: { amount: 1 }, recipient: 'A grower of north-farm' }),
    });
    if (res.status !== 201) throw new Error(`a handoff to receive: ${res.status} ${await res.text()}`);
    const { id, transactionId } = ((await res.json()) as { data: { id: string; transactionId: string } }).data;
    for (let i = 0; i < 150; i++) {
      const proof = await fetch(`${base}/api/transparency/proofs/transactions/${transactionId}`);
      if (proof.ok && ((await proof.json()) as { data: { auditEntry: unknown } }).data.auditEntry) {
        return { ...ex, handoffId: id };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the log never recorded the handoff ${id}`);
  },
  // The peer's mirror as a fork would leave it (its checkpoint shown as the inconsistent one): the fork cleared.
  clearPeerFork: async (ex) => {
    for (let i = 0; i < 150; i++) {
      const marked = (await p.database.db.execute(
        sql`update transparency.federation_peers set state = 'fork', problem = 'another root at the mirrored size',
          fork_note = note where name = 'north-farm' and note is not null returning name`,
      )) as unknown as unknown[];
      if (marked.length > 0) return ex;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the node never mirrored its peer north-farm');
  },
  createSigningKey: async (ex) => ({
    ...ex,
    publicKey: rawKey,
    challenge: seen.get('challenge'),
    proof: signed(`${seen.get('messagePrefix')}${rawKey}`),
  }),
  createSignature: async (ex) => {
    const query = new URLSearchParams({ subjectType: String(ex.subjectType), subjectId: String(ex.subjectId) });
    const res = await fetch(`${base}/api/transparency/signatures/statement?${query}`, {
      headers: { authorization: `Bearer ${tokens.get(ADA)}` },
    });
    const { data } = (await res.json()) as { data: { canonical: string } };
    return { ...ex, signature: signed(data.canonical) };
  },
  verifySignature: async (ex) => ({
    ...ex,
    publicKey: rawKey,
    signature: signed(canonicalize(ex.statement) as string),
  }),
  previewOrganizationInvitation: async (ex) => ({ ...ex, token: (await freshInvitation()).token }),
  acceptOrganizationInvitation: async (ex) => ({ ...ex, token: (await freshInvitation()).token }),
  declineOrganizationInvitation: async (ex) => ({ ...ex, token: (await freshInvitation()).token }),
  verifyEmail: async (ex) => ({ ...ex, token: await tokenFromMail(/\/verify-email\?token=([A-Za-z0-9_.~-]+)/) }),
  resetPassword: async (ex) => ({ ...ex, token: await tokenFromMail(/\/reset-password\?token=([A-Za-z0-9_.~-]+)/) }),
};

/** Query parameters that come from an email, as a person following its link would have them. */
const FROM_MAIL: Record<string, RegExp> = {
  token: /\/unsubscribe\?token=([A-Za-z0-9_.-]+)/,
};

/**
 * Operations a person reaches through a browser rather than with one request: the provider's redirect back to the
 * callback (after signing in at the provider started by the sign-in operation), and the WebSocket upgrade.
 */
const FLOWS: Record<string, (o: Operation, url: string) => Promise<Answer>> = {
  completeProviderSignIn: async (_o, url) => {
    const start = await fetch(`${base}${url.replace('/callback/', '/signin/')}`, { redirect: 'manual' });
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const atProvider = await fetch(start.headers.get('location') as string, { redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location') as string);
    const res = await fetch(`${base}${url}${back.search}`, { headers: { cookie }, redirect: 'manual' });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  },
  completeUpload: async (o, url) => {
    // The bytes go to the address the presigned upload gave, with its headers, at the size it declared.
    const { upload } = answers.get('presignUpload') as { upload: { url: string; headers: Record<string, string> } };
    const declared = Number((requests.get('presignUpload') as { bytes: number }).bytes);
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7d44' } })
      .jpeg()
      .toBuffer();
    const bytes = Buffer.concat([jpeg, Buffer.alloc(Math.max(0, declared - jpeg.length))]);
    const headers = Object.fromEntries(Object.entries(upload.headers).filter(([k]) => k !== 'content-length'));
    const put = await fetch(upload.url, { method: 'PUT', headers, body: bytes });
    if (!put.ok) throw new Error(`the presigned upload: ${put.status} ${await put.text()}`);
    return call(o, url, undefined, ADA);
  },
  getEpcisCaptureJob: async (o) => {
    // A capture job of Ada's: the capture answers its place in `Location`, not an id in an envelope.
    const capture = byId('captureEpcisDocument');
    const body = (await bodyOf(capture)) as { json: unknown };
    const res = await fetch(`${base}/api/epcis/capture`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.get(ADA)}`, 'content-type': 'application/json' },
      body: JSON.stringify(body.json),
    });
    if (res.status !== 202) throw new Error(`a capture job: ${res.status} ${await res.text()}`);
    return call(o, res.headers.get('location') as string, undefined, ADA);
  },
  revokeOrganizationInvitation: async (o) => {
    // An invitation still pending: one of its own (the walk's first was accepted).
    const { id } = await freshInvitation();
    return call(o, `/api/organizations/${made.get('org')}/invitations/${id}`, undefined, ADA);
  },
  redeliverWebhookDelivery: async (o) => {
    // A delivery exists once an event the webhook takes has happened: a plant registered after it.
    const register = byId('registerPlant');
    await call(register, await urlOf(register), await bodyOf(register), ADA);
    const hook = made.get('whk');
    const headers = { authorization: `Bearer ${tokens.get(ADA)}` };
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${base}/api/transparency/webhooks/${hook}/deliveries`, { headers });
      const delivery = ((await res.json()) as { data: { id: string }[] }).data[0];
      if (delivery)
        return call(o, `/api/transparency/webhooks/${hook}/deliveries/${delivery.id}/redeliver`, undefined, ADA);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no delivery to ${hook} after a registration`);
  },
};

/** The node's log and witness keys, set so that it can name itself as its own peer (PEERS). */
const logKey = generateKeyPairSync('ed25519');
const witnessKey = generateKeyPairSync('ed25519');
const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();
/** A note verifier key (c2sp.org/signed-note): `<name>+<key id>+base64(type ‖ key)`. */
function verifierKeyOf(name: string, type: number, k: KeyObject): string {
  const raw = k.export({ format: 'der', type: 'spki' }).subarray(-32);
  const body = Buffer.concat([Buffer.from([type]), raw]);
  const id = createHash('sha256').update(`${name}\n`).update(body).digest().subarray(0, 4).toString('hex');
  return `${name}+${id}+${body.toString('base64')}`;
}

let p: TestPlatform;
let dataDir: string;
let oidc: OAuth2Server;
let provider: { url: string; close(): Promise<void> };

/** An identification service on this machine answering as the Pl@ntNet identification API documents. */
async function startIdentificationProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          results: [
            {
              score: 0.91,
              species: {
                scientificNameWithoutAuthor: 'Solanum lycopersicum',
                scientificNameAuthorship: 'L.',
                genus: { scientificNameWithoutAuthor: 'Solanum' },
                family: { scientificNameWithoutAuthor: 'Solanaceae' },
                commonNames: ['Tomato'],
              },
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
let base: string;
let doc: Document;
const tokens = new Map<string, string>();
/** The walk's own record of each id prefix (its latest), by prefix. */
const made = new Map<string, string>();
/** How each prefix's record was made, to make a fresh one for an operation that uses one up. */
const makers = new Map<string, { operation: Operation; url: string; body?: RequestBody }>();
/** Leaf values seen in answers, by key (latest wins). */
const seen = new Map<string, unknown>();
const recorded: Record<string, RecordedExample> = {};
/** The id each operation's last answer made or named (`data.id`), by operationId. */
const producedBy = new Map<string, string>();
/** Each operation's last JSON request body, by operationId. */
const requests = new Map<string, unknown>();
/** Each operation's last answer (`data`), by operationId. */
const answers = new Map<string, unknown>();
const results = new Map<string, string>();

type RequestBody = { json: unknown } | { form: FormData } | { text: string };

beforeAll(async () => {
  oidc = new OAuth2Server();
  await oidc.issuer.keys.generate('RS256');
  await oidc.start(0, '127.0.0.1');
  oidc.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, { email: 'ada.oidc@example.org', email_verified: true, name: 'Ada' });
  });
  provider = await startIdentificationProvider();
  dataDir = await mkdtemp(join(tmpdir(), 'rootline-walk-'));
  // The sign-in provider's callback address is public: the port is chosen before the gateway starts.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  p = await startTestPlatform(SERVICES, {
    PUBLIC_URL: base,
    PLANT_ID_URL: provider.url,
    PLANT_ID_API_KEY: 'walk-key',
    // The log of the witness's documented example, so that its add-checkpoint runs as written.
    WITNESS_LOGS: 'rootline.example/api/transparency/log+b94e0ea3+AYqI4910CfGV/VLbLTy6XXLKZwm/HZQSG/N0iAG0D29c',
    // The node is the peer of the federation examples' name, so that its peer operations run against itself.
    AUDIT_SIGNING_KEY: pem(logKey.privateKey),
    WITNESS_SIGNING_KEY: pem(witnessKey.privateKey),
    PEERS: `north-farm ${base} ${verifierKeyOf(`127.0.0.1:${port}/api/transparency/log`, 1, logKey.publicKey)} ${verifierKeyOf(`127.0.0.1:${port}/api/transparency/witness`, 4, witnessKey.publicKey)}`,
    GOOGLE_CLIENT_ID: 'rootline-google',
    GOOGLE_CLIENT_SECRET: 'google-client-secret',
    GOOGLE_ISSUER: oidc.issuer.url as string,
    CHAIN_DIFFICULTY: '8',
    DATA_DIR: dataDir,
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: join(dataDir, 'files'),
    STORAGE_SIGNING_SECRET: 's'.repeat(32),
    UNSUBSCRIBE_SECRET: 'u'.repeat(32),
    NOTIFY_POLL_MS: '50',
    MEDIA_JOB_POLL_MS: '100',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  await p.app.listen({ port, host: '127.0.0.1' });
  for (const [who, role] of Object.entries(ROLES)) tokens.set(who, await p.token(role, who));
  tokens.set(ADA_LEAVING, await p.token('FARM_MANAGER', ADA));
  doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as Document;
}, 180_000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

afterAll(async () => {
  await p?.stop();
  await oidc?.stop();
  await provider?.close();
});

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const status = Number(Object.keys(op.responses).find((c) => /^[123]\d\d$/.test(c)));
      const m = method.toUpperCase();
      const phase: Phase =
        status === 201
          ? 'create'
          : m === 'GET'
            ? 'read'
            : m === 'DELETE'
              ? 'delete'
              : m === 'PUT' || m === 'PATCH'
                ? 'update'
                : 'act';
      out.push({ method: m, path, op, status, phase });
    }
  }
  return out;
}

const resolve = (s: Schema | undefined): Schema | undefined =>
  s?.$ref ? doc.components.schemas[s.$ref.split('/').at(-1) as string] : s;

function mediaExample(media: Media | undefined): unknown {
  if (!media) return undefined;
  const named = media.examples ? Object.values(media.examples)[0]?.value : undefined;
  const schema = resolve(media.schema);
  return media.example ?? named ?? schema?.examples?.[0] ?? schema?.example;
}

function parameterExample(param: Parameter): unknown {
  return param.example ?? param.schema?.examples?.[0] ?? param.schema?.example;
}

/** What an operation's examples lack, for the coverage check. */
function missingExamples(o: Operation): string[] {
  const missing: string[] = [];
  for (const param of o.op.parameters ?? []) {
    if (param.in === 'header') continue;
    if (param.required && parameterExample(param) === undefined) missing.push(`${param.in} parameter ${param.name}`);
  }
  const body = o.op.requestBody?.content;
  if (body && mediaExample(Object.values(body)[0]) === undefined) missing.push('request body');
  // One example of the answer is enough where it comes in several media types (an export as JSON or EPCIS).
  const media = Object.entries(o.op.responses[String(o.status)]?.content ?? {});
  if (media.length > 0 && !media.some(([type, m]) => isBinary(type, m) || mediaExample(m) !== undefined)) {
    missing.push('success response example');
  }
  return missing;
}

const isBinary = (type: string, media: Media) =>
  /^(image|application\/(pdf|octet-stream))/.test(type) || resolve(media.schema)?.format === 'binary';

/** Ids of the examples replaced by the walk's own, prefix by prefix; client-chosen ids stay as written. */
function substitute(value: unknown): unknown {
  if (typeof value === 'string') {
    // An id inside a Rootline URN (an EPC such as `urn:rootline:plant:plt_…`) is replaced as the id alone.
    const urn = /^(urn:rootline:[a-z-]+:)(.+)$/.exec(value);
    if (urn) return `${urn[1]}${substitute(urn[2])}`;
    const prefix = value.match(ID)?.[1];
    if (prefix && !CLIENT_CHOSEN.has(prefix)) return made.get(prefix) ?? value;
    return value;
  }
  if (Array.isArray(value)) return value.map(substitute);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
  }
  return value;
}

/** Prefixes of the records an operation's examples name that the walk has not made yet. */
function waitingFor(o: Operation): string[] {
  // A flow finds its own records.
  if (FLOWS[o.op.operationId]) return [];
  const prefixes = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      const prefix = v.replace(/^urn:rootline:[a-z-]+:/, '').match(ID)?.[1];
      if (prefix && !CLIENT_CHOSEN.has(prefix) && !made.has(prefix)) prefixes.add(prefix);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  for (const param of o.op.parameters ?? []) {
    if (param.in === 'path' || param.required) visit(parameterExample(param));
  }
  const body = o.op.requestBody?.content;
  if (body) visit(mediaExample(Object.values(body)[0]));
  return [...prefixes];
}

function parameterValue(param: Parameter): unknown {
  const source = FROM_ANSWERS[param.name];
  if (source !== undefined && seen.has(source)) return seen.get(source);
  return substitute(parameterExample(param));
}

async function urlOf(o: Operation): Promise<string> {
  let url = o.path;
  const query = new URLSearchParams();
  for (const param of o.op.parameters ?? []) {
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(String(parameterValue(param))));
    if (param.in !== 'query' || !param.required) continue;
    const mail = FROM_MAIL[param.name];
    query.set(param.name, mail ? await tokenFromMail(mail) : String(parameterValue(param)));
  }
  return query.size ? `${url}?${query}` : url;
}

const photo = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7d44' } })
    .png()
    .toBuffer();

const PDF = `%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`;
/** A file of seed lots with the headers the import's documented mapping names. */
const LOTS_CSV = 'Ref,Crop,Year,Seeds,Unit\nwalk-1,tomato,2026,120,seeds\n';

async function bodyOf(o: Operation): Promise<RequestBody | undefined> {
  const content = o.op.requestBody?.content;
  if (!content) return undefined;
  const [type, media] = Object.entries(content)[0] as [string, Media];
  const example = substitute(mediaExample(media));
  const build = BODIES[o.op.operationId];
  if (build) return { json: await build(example as Record<string, unknown>) };
  // A protocol's text body (the witness's add-checkpoint) goes as written.
  if (type === 'text/plain' && typeof example === 'string') return { text: example };
  if (type !== 'multipart/form-data') return { json: example };
  // A form: its fields as the example gives them, a real file where the schema takes bytes.
  const form = new FormData();
  const properties = resolve(media.schema)?.properties ?? {};
  const bytes = (schema: Schema | undefined) =>
    schema?.format === 'binary' || (schema?.type === 'array' && resolve(schema.items)?.format === 'binary');
  for (const [name, value] of Object.entries((example ?? {}) as Record<string, unknown>)) {
    if (bytes(properties[name])) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
  }
  for (const [name, schema] of Object.entries(properties)) {
    if (!bytes(schema)) continue;
    const given = (example as Record<string, unknown> | undefined)?.[name];
    const count = Array.isArray(given) ? given.length : 1;
    for (let i = 0; i < count; i++) {
      if (o.path.endsWith('/document')) form.append(name, new Blob([PDF], { type: 'application/pdf' }), 'invoice.pdf');
      else if (o.path === '/api/imports')
        form.append(name, new Blob([LOTS_CSV], { type: 'text/csv' }), 'seed-lots.csv');
      else form.append(name, new Blob([new Uint8Array(await photo())], { type: 'image/png' }), 'tomato.png');
    }
  }
  return { form };
}

/** The first value `pattern` finds in the emails sent so far (newest first), waiting for one to arrive. */
async function tokenFromMail(pattern: RegExp): Promise<string> {
  const dir = join(dataDir, 'mail');
  for (let i = 0; i < 150; i++) {
    const files = (await readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .reverse();
    for (const file of files) {
      // Quoted-printable: soft line breaks and an encoded equals sign.
      const text = (await readFile(join(dir, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const found = text.match(pattern)?.[1];
      if (found) return decodeURIComponent(found);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no email with ${pattern} arrived in ${dir}`);
}

/** The invitation links of the emails sent so far. */
async function invitationLinks(): Promise<string[]> {
  const dir = join(dataDir, 'mail');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
  const texts = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
  return texts.flatMap((t) =>
    [
      ...t
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=')
        .matchAll(/\/organizations\/join\?token=([A-Za-z0-9_.~-]+)/g),
    ].map((m) => decodeURIComponent(m[1] as string)),
  );
}

/**
 * Ada invites someone to her organization afresh and the token of the email it sends, as the invited person would
 * open it: each answer (accept, decline) uses its invitation up.
 */
async function freshInvitation(): Promise<{ id: string; token: string }> {
  const before = new Set(await invitationLinks());
  const res = await fetch(`${base}/api/organizations/${made.get('org')}/invitations`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokens.get(ADA)}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({ email: 'grace@example.org', role: 'member' }),
  });
  if (res.status !== 201) throw new Error(`an invitation: ${res.status} ${await res.text()}`);
  const { id } = ((await res.json()) as { data: { id: string } }).data;
  for (let i = 0; i < 150; i++) {
    const token = (await invitationLinks()).find((t) => !before.has(t));
    if (token) return { id, token };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no invitation email for ${id} arrived`);
}

function callerOf(o: Operation): string {
  const named = CALLER[o.op.operationId];
  if (named) return named;
  const permission = o.op['x-permission'];
  return permission === undefined || roleHas('FARM_MANAGER', permission) ? ADA : ROOT;
}

async function call(o: Operation, url: string, body: RequestBody | undefined, who: string): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${tokens.get(who)}` };
  if (o.method === 'POST' || o.method === 'PUT') headers['idempotency-key'] = crypto.randomUUID();
  if (body && 'json' in body) headers['content-type'] = 'application/json';
  if (body && 'text' in body) headers['content-type'] = 'text/plain';
  const controller = new AbortController();
  const res = await fetch(`${base}${url}`, {
    method: o.method,
    headers,
    ...(body ? { body: 'json' in body ? JSON.stringify(body.json) : 'text' in body ? body.text : body.form } : {}),
    redirect: 'manual',
    signal: controller.signal,
  });
  const type = res.headers.get('content-type') ?? '';
  // A stream answers forever: its status and type are the answer.
  if (type.startsWith('text/event-stream')) {
    controller.abort();
    return { status: res.status, type, text: '' };
  }
  const text = Buffer.from(await res.arrayBuffer()).toString(type.startsWith('application/json') ? 'utf8' : 'latin1');
  let json: unknown;
  if (type.startsWith('application/json')) json = JSON.parse(text);
  return { status: res.status, type, text, ...(json === undefined ? {} : { json }) };
}

/** Remembers the ids and values an answer shows. A create's own id becomes the walk's record of its prefix. */
function learn(o: Operation, answer: Answer): void {
  const data = (answer.json as { data?: unknown } | undefined)?.data;
  const visit = (v: unknown, key: string): void => {
    if (Array.isArray(v)) for (const x of v) visit(x, key);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
    else {
      seen.set(key, v);
      const prefix = typeof v === 'string' && (key === 'id' || key.endsWith('Id')) ? v.match(ID)?.[1] : undefined;
      if (prefix && !made.has(prefix)) made.set(prefix, v as string);
    }
  };
  if (o.phase === 'create' && data && typeof data === 'object' && 'id' in data) {
    const id = String((data as { id: unknown }).id);
    const prefix = id.match(ID)?.[1];
    if (prefix && !made.has(prefix)) made.set(prefix, id);
  }
  visit(data, '');
  // An EPCIS subscription answers the standard's object, not the envelope, with its id in `subscriptionID`.
  const subscription = (answer.json as { subscriptionID?: unknown } | undefined)?.subscriptionID;
  if (typeof subscription === 'string' && !made.has('sub')) made.set('sub', subscription);
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
ajv.addKeyword({ keyword: 'example' });

function schemaErrors(schema: Schema, value: unknown): string | undefined {
  const validate = ajv.compile({ ...schema, components: doc.components });
  return validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'answer' });
}

/** An answer as a documented example: secrets blanked (same shape), long lists cut to two items. */
function scrub(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && /token|secret|privateKey|password|csrf/i.test(key)) {
    // A short lowercase prefix (`rlpat_`, `whsec_`) says what the secret is: it stays; the rest is blanked.
    const at = /^[a-z]{2,8}_/.test(value) ? value.indexOf('_') + 1 : 0;
    return value.slice(0, at) + value.slice(at).replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/\d/g, '0');
  }
  if (Array.isArray(value)) return value.slice(0, 2).map((v) => scrub(v, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, k)]));
  }
  return value;
}

async function run(o: Operation): Promise<void> {
  const id = o.op.operationId;
  const before = BEFORE[id];
  const who = callerOf(o);
  const restore = new Map<string, string>();
  // An act uses its record up (an offer accepted, a batch harvested): it gets a fresh one, made as the walk made
  // the first, and the walk goes on with the first. A record another operation made is taken from that one.
  for (const param of o.op.parameters ?? []) {
    const prefix = param.in === 'path' ? String(parameterExample(param)).match(ID)?.[1] : undefined;
    if (!prefix) continue;
    const source = RECORD_OF[id]?.[prefix];
    if (source) {
      restore.set(prefix, made.get(prefix) as string);
      made.set(prefix, producedBy.get(source) as string);
      continue;
    }
    const maker = makers.get(prefix);
    if (!maker || KEEPS.has(id) || !(o.phase === 'act' || FRESH.has(id))) continue;
    const fresh = await call(maker.operation, maker.url, maker.body, callerOf(maker.operation));
    const freshId = (fresh.json as { data?: { id?: string } } | undefined)?.data?.id;
    if (fresh.status !== maker.operation.status || !freshId) {
      throw new Error(`a fresh ${prefix} record for ${id}: ${fresh.status} ${fresh.text.slice(0, 300)}`);
    }
    restore.set(prefix, made.get(prefix) as string);
    made.set(prefix, freshId);
  }
  try {
    await perform(o, id, before, who);
  } finally {
    for (const [prefix, value] of restore) made.set(prefix, value);
  }
}

async function perform(o: Operation, id: string, before: string | undefined, who: string): Promise<void> {
  if (before) {
    const prior = operations().find((x) => x.op.operationId === before) as Operation;
    const answer = await call(prior, await urlOf(prior), await bodyOf(prior), callerOf(prior));
    if (answer.status !== prior.status) throw new Error(`${before} before ${id}: ${answer.status} ${answer.text}`);
  }
  const url = await urlOf(o);
  const body = await bodyOf(o);
  if (body && 'json' in body) requests.set(id, body.json);
  for (const other of ALSO_AS[id] ?? []) {
    const answer = await call(o, url, body, other);
    if (answer.status !== o.status) throw new Error(`${id} as ${other}: ${answer.status} ${answer.text}`);
  }
  const answer = FLOWS[id] ? await FLOWS[id](o, url) : await call(o, url, body, who);
  if (answer.status !== o.status) {
    throw new Error(
      `${o.method} ${url} as ${ROLES[who] ?? who}: ${answer.status}, documented ${o.status}: ${answer.text}`,
    );
  }
  // Every list, paged or answered whole, has its pagination beside `data` (ADR 108, ADR 188).
  const envelope = answer.json as { data?: unknown; pagination?: unknown } | undefined;
  if (o.status === 200 && Array.isArray(envelope?.data) && typeof envelope?.pagination !== 'object') {
    throw new Error(`${id}: a list answered without \`pagination\``);
  }
  const documented = o.op.responses[String(o.status)]?.content;
  if (documented) {
    const media = Object.entries(documented).find(([type]) => answer.type.startsWith(type.split(';')[0] as string));
    if (!media) throw new Error(`${id}: answered ${answer.type}, documented ${Object.keys(documented).join(', ')}`);
    if (answer.json !== undefined && media[1].schema) {
      const errors = schemaErrors(media[1].schema, answer.json);
      if (errors) throw new Error(`${id}: the answer does not match its schema: ${errors}`);
    }
    if (!isBinary(media[0], media[1]) && answer.text) {
      recorded[id] = {
        status: o.status,
        type: media[0],
        value: answer.json !== undefined ? scrub(answer.json) : answer.text.slice(0, 1200),
      };
    }
  }
  learn(o, answer);
  await AFTER[id]?.();
  const data = (answer.json as { data?: Record<string, unknown> } | undefined)?.data;
  answers.set(id, data);
  const madeId =
    data && typeof data === 'object'
      ? (data.id ?? Object.entries(data).find(([k, v]) => k.endsWith('Id') && typeof v === 'string' && ID.test(v))?.[1])
      : undefined;
  if (typeof madeId === 'string') producedBy.set(id, madeId);
  if (o.phase === 'create') {
    const prefix = String((answer.json as { data?: { id?: string } } | undefined)?.data?.id ?? '').match(ID)?.[1];
    if (prefix && !makers.has(prefix)) makers.set(prefix, { operation: o, url, ...(body ? { body } : {}) });
  }
}

/**
 * The pages a person reads, in order: the README, then each page of the docs in the order the README first links
 * it. Generated reference pages (permissions, configuration, event kinds) and the benchmarks list every path, not
 * a walk through them.
 */
async function pagesInOrder(): Promise<string[]> {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  const linked = [...new Set([...readme.matchAll(/docs\/([a-z-]+)\.md/g)].map((m) => m[1] as string))];
  const all = (await readdir(join(REPO, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
  const pages = [...linked, ...all.filter((x) => !linked.includes(x)).sort()].filter((x) => !REFERENCE_PAGES.has(x));
  return [readme, ...(await Promise.all(pages.map((x) => readFile(join(REPO, 'docs', `${x}.md`), 'utf8'))))];
}
const REPO = join(import.meta.dirname, '..', '..');
const REFERENCE_PAGES = new Set(['permissions', 'configuration', 'event-kinds', 'benchmarks']);

/** `/api/transport/{seed-acquisition,planting}` as the README writes a family of paths: one path each. */
const expand = (text: string): string[] => {
  const m = text.match(/\{([^{}]*,[^{}]*)\}/);
  if (!m) return [text];
  return (m[1] as string).split(',').flatMap((x) => expand(text.replace(m[0], x)));
};

/**
 * The operations in the order the pages first name them (`POST /api/plants/register`, or a path alone, which names
 * every method on it), ties in the document's order; operations no page names follow in the walk's dependency
 * order (creates, reads, updates, acts); deletes last.
 */
async function docsOrder(ops: Operation[]): Promise<Operation[]> {
  const mentions: { method?: string; path: string }[] = [];
  for (const page of await pagesInOrder()) {
    // A page's table of endpoints writes paths under the area the page is about (`All routes are under /api/demand`).
    const base = page.match(/`(\/api\/[a-z-]+)`/)?.[1] ?? '';
    for (const line of page.split('\n')) {
      const row = line.match(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\/[^\s|]+)/);
      if (row && !row[2]?.startsWith('/api/')) mentions.push({ method: row[1] as string, path: `${base}${row[2]}` });
      for (const m of line.matchAll(/(?:\b(GET|POST|PUT|PATCH|DELETE) )?(\/api\/[A-Za-z0-9_{},./-]*[A-Za-z0-9_}])/g)) {
        for (const path of expand(m[2] as string)) mentions.push({ ...(m[1] ? { method: m[1] } : {}), path });
      }
    }
  }
  // A path template matches a mention that writes the same segments, a parameter standing for any one segment.
  const matches = (o: Operation, path: string) =>
    new RegExp(`^${o.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
  // A literal path (`/api/plants/nearby`) names its own operations, not the template beside it (`{plantId}`).
  const literal = new Set(ops.map((o) => o.path));
  const rank = (o: Operation) => {
    const at = mentions.findIndex(
      (x) =>
        (!x.method || x.method === o.method) && (x.path === o.path || (!literal.has(x.path) && matches(o, x.path))),
    );
    return at === -1 ? mentions.length + PHASES.indexOf(o.phase) : at;
  };
  const ranked = ops.map((o, i) => ({
    o,
    i,
    r: o.phase === 'delete' ? Number.MAX_SAFE_INTEGER - (DELETED_FIRST.has(o.op.operationId) ? 1 : 0) : rank(o),
  }));
  return ranked.sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.o);
}

describe('the example walk', () => {
  it('documents a request and a success-response example for every operation', async () => {
    const missing = operations()
      .map((o) => [`${o.method} ${o.path}`, missingExamples(o)] as const)
      .filter(([, m]) => m.length > 0)
      .map(([where, m]) => `${where}: ${m.join(', ')}`);
    const ids = new Set(operations().map((o) => o.op.operationId));
    const tables = {
      CALLER,
      BEFORE,
      ALSO_AS,
      AFTER,
      BODIES,
      FLOWS,
      RECORD_OF,
      FRESH: Object.fromEntries([...FRESH, ...KEEPS, ...DELETED_FIRST].map((x) => [x, x])),
    };
    const stray = Object.entries(tables).flatMap(([name, table]) =>
      [
        ...Object.keys(table),
        ...(name === 'BEFORE' ? Object.values(table) : []),
        ...(name === 'RECORD_OF' ? Object.values(table).flatMap((x) => Object.values(x as object)) : []),
      ]
        .filter((x) => typeof x === 'string' && !ids.has(x))
        .map((x) => `${name}: ${x}`),
    );
    expect(stray, "the walk's tables name operations that do not exist").toEqual([]);
    if (process.env.RECORD_EXAMPLES) return;
    expect(missing).toEqual([]);
  });

  it('runs every documented example, in the order the README and docs pages name them, with its documented status and an answer its schema describes', async () => {
    // A person meets the operations in the order of the pages; an operation runs at its place unless the records
    // its example names are not made yet, then as soon as they are. Deletes come last: they end the records the
    // walk goes on using.
    const queue = await docsOrder(operations());
    const pending: Operation[] = [];
    const failures: string[] = [];
    const attempt = async (o: Operation) => {
      try {
        await run(o);
        results.set(o.op.operationId, 'ok');
      } catch (error) {
        failures.push(`${o.op.operationId} (${o.method} ${o.path}): ${(error as Error).message.slice(0, 600)}`);
      }
    };
    for (const o of queue) {
      if (waitingFor(o).length > 0) {
        pending.push(o);
        continue;
      }
      await attempt(o);
      for (
        let ready = pending.find((x) => waitingFor(x).length === 0);
        ready;
        ready = pending.find((x) => waitingFor(x).length === 0)
      ) {
        pending.splice(pending.indexOf(ready), 1);
        await attempt(ready);
      }
    }
    for (const o of pending)
      failures.push(`${o.op.operationId}: no record of kind ${waitingFor(o).join(', ')} was made`);
    if (process.env.RECORD_EXAMPLES) {
      const before = JSON.parse(await readFile(RESPONSE_EXAMPLES_FILE, 'utf8').catch(() => '{}'));
      await writeFile(RESPONSE_EXAMPLES_FILE, `${JSON.stringify({ ...before, ...recorded }, null, 2)}\n`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
