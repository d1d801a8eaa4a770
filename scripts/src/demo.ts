import { randomBytes } from 'node:crypto';
import { createRootline, IDEMPOTENCY_HEADER, idempotencyKey, type RootlineClient, RootlineError } from '@rootline/sdk';
import { type Call, type DemoContext, daysAgo, type Person, PLACES } from './demo-context.js';
import { type DemandRegion, fillDemand } from './demo-demand.js';
import { type DemoFarm, fillFarm } from './demo-farm.js';
import { fillPhotos } from './demo-photos.js';

/** Where `pnpm demo` writes and with whom. */
export interface DemoOptions {
  baseUrl: string;
  /** Password of the accounts it registers (at least 12 characters). */
  password: string;
  /** An ADMIN, to make one demo account a FARM_MANAGER; without it the farm is left out. */
  admin?: { email: string; password: string };
  /** One line of progress at a time. */
  progress(line: string): void;
}

/** What the demo made, by kind, and the accounts to sign in with. */
export interface DemoSummary {
  accounts: { name: string; email: string; role: string }[];
  plants: string[];
  journeyEvents: number;
  /** Plant photos uploaded. */
  photos: string[];
  /** Demand regions with their households and, with an ADMIN, the signal generated over their history. */
  demand: DemandRegion[];
  farm?: DemoFarm;
  listings: string[];
  offers: { id: string; status: string }[];
}

/**
 * The data of a successful call, or a RootlineError naming what failed. A rate-limited or unavailable answer is
 * retried (said in the progress output) after the wait the API names, with the same Idempotency-Key, so a write
 * happens once.
 */
async function answered<T>(what: string, call: Call<T>, progress: (line: string) => void = () => {}): Promise<T> {
  const headers = { [IDEMPOTENCY_HEADER]: idempotencyKey() };
  for (let attempt = 1; ; attempt++) {
    const result = await call(headers);
    if (result.data) return result.data.data;
    const status = result.response.status;
    if ((status === 429 || status === 503) && attempt < 5) {
      const seconds = Math.min(Number(result.response.headers.get('retry-after')) || 2 ** attempt, 65);
      progress(`  (${status === 429 ? 'rate limited' : 'unavailable'}: waiting ${seconds} s)`);
      await new Promise((r) => setTimeout(r, seconds * 1000));
      continue;
    }
    const err = RootlineError.from(result);
    throw new RootlineError(err.status, err.code, `${what}: ${err.message}`, err.details);
  }
}

/**
 * Fills a running Rootline with a small, realistic network through its public API: growers whose tomato and basil
 * plants have offspring over three generations and photos, the journey of one harvest from seed to a food co-op,
 * households in two demand regions with weeks of history (settled and imported by the ADMIN), a vertical farm with a
 * harvested lettuce batch and a growing one with a week of sensor readings, and a marketplace with listings and an
 * offer in each state. Every account is new (its address carries a run id), so it can run again on the same instance.
 */
export async function fillDemo(o: DemoOptions): Promise<DemoSummary> {
  const run = randomBytes(3).toString('hex');
  const step = (line: string) => o.progress(line);
  const ok = <T>(what: string, call: Call<T>) => answered(what, call, step);
  /** Signs a client in (retried like any call) and keeps the session token in it. */
  const signIn = async (client: RootlineClient, email: string) => {
    const session = await ok(`signing in ${email}`, () =>
      client.POST('/api/auth/signin', { body: { email, password: o.password } }),
    );
    client.setToken(session.token);
    return session;
  };

  const person = async (name: string, local: string): Promise<Person> => {
    const email = `${local}+${run}@demo.rootline.example`;
    const client = createRootline({ baseUrl: o.baseUrl });
    await ok(`registering ${email}`, (headers) =>
      client.POST('/api/auth/register', { body: { email, password: o.password, name }, headers }),
    );
    const { user, token } = await signIn(client, email);
    return { name, email, id: user.id, token, client };
  };
  const c: DemoContext = { baseUrl: o.baseUrl, run, step, ok, person };

  step(`Accounts (run ${run})`);
  const ada = await person('Ada Verhoeven', 'ada');
  const ben = await person('Ben de Wit', 'ben');
  const chloe = await person('Chloé Martin', 'chloe');
  const coop = await person('Leiden Food Co-op', 'coop');
  const accounts = [ada, ben, chloe, coop].map((p) => ({ name: p.name, email: p.email, role: 'USER' }));
  step(`  ${accounts.length} accounts registered and signed in`);

  step('Plants and their lineage');
  const register = (p: Person, body: { commonName: string; scientificName: string; at: keyof typeof PLACES }) =>
    ok(`registering ${body.commonName}`, (headers) =>
      p.client.POST('/api/plants/register', {
        body: {
          commonName: body.commonName,
          scientificName: body.scientificName,
          location: PLACES[body.at],
          owner: { id: p.id, name: p.name },
          privacyLevel: 'city',
        },
        headers,
      }),
    );
  const propagate = (
    p: Person,
    parentPlantId: string,
    propagationType: 'cutting' | 'seed' | 'division',
    at: keyof typeof PLACES,
  ) =>
    ok(`propagating ${parentPlantId}`, (headers) =>
      p.client.POST('/api/plants/clone', {
        body: { parentPlantId, propagationType, newPlant: { location: PLACES[at], owner: { id: p.id, name: p.name } } },
        headers,
      }),
    );
  const tomato = await register(ada, { commonName: 'Tomato', scientificName: 'Solanum lycopersicum', at: 'amsterdam' });
  const basil = await register(chloe, { commonName: 'Basil', scientificName: 'Ocimum basilicum', at: 'haarlem' });
  const mint = await register(ben, { commonName: 'Mint', scientificName: 'Mentha spicata', at: 'utrecht' });
  step(`  3 plants registered: ${tomato.id} (tomato), ${basil.id} (basil), ${mint.id} (mint)`);
  const tomatoCutting = await propagate(ben, tomato.id, 'cutting', 'utrecht');
  const tomatoSeedling = await propagate(chloe, tomato.id, 'seed', 'haarlem');
  const grandchild = await propagate(coop, tomatoCutting.id, 'seed', 'leiden');
  const basilCutting = await propagate(ada, basil.id, 'cutting', 'amsterdam');
  const mintDivision = await propagate(chloe, mint.id, 'division', 'haarlem');
  const plants = [tomato, basil, mint, tomatoCutting, tomatoSeedling, grandchild, basilCutting, mintDivision].map(
    (p) => p.id,
  );
  step(`  5 offspring over three generations (tomato → cutting → seedling ${grandchild.id})`);

  step('A journey from seed to a food co-op');
  const lot = `lot_tomato-${run}`;
  await ok('seed acquisition', (headers) =>
    ada.client.POST('/api/transport/seed-acquisition', {
      body: {
        eventTime: daysAgo(120),
        from: PLACES.utrecht,
        to: PLACES.amsterdam,
        privacyLevel: 'city',
        seedLotId: lot,
        quantity: { value: 50, unit: 'seeds' },
        transportMode: 'bicycle',
      },
      headers,
    }),
  );
  await ok('planting', (headers) =>
    ada.client.POST('/api/transport/planting', {
      body: {
        plantId: tomato.id,
        eventTime: daysAgo(100),
        to: PLACES.amsterdam,
        privacyLevel: 'city',
        seedLotId: lot,
        quantity: { value: 1, unit: 'plants' },
      },
      headers,
    }),
  );
  await ok('harvest', (headers) =>
    ada.client.POST('/api/transport/harvest', {
      body: {
        plantId: tomato.id,
        eventTime: daysAgo(5, 8),
        to: PLACES.amsterdam,
        privacyLevel: 'city',
        quantity: { value: 4.2, unit: 'kg' },
      },
      headers,
    }),
  );
  await ok('distribution', (headers) =>
    ada.client.POST('/api/transport/distribution', {
      body: {
        plantId: tomato.id,
        eventTime: daysAgo(4, 9),
        from: PLACES.amsterdam,
        to: PLACES.leiden,
        privacyLevel: 'city',
        transportMode: 'electric-van',
        massKg: 4.2,
        recipient: { id: coop.id, name: coop.name },
      },
      headers,
    }),
  );
  step('  4 events: seed acquisition, planting, harvest, distribution Amsterdam → Leiden');

  // The ADMIN (when given) makes the farm manager and imports the demand history.
  let admin: RootlineClient | undefined;
  if (o.admin) {
    admin = createRootline({ baseUrl: o.baseUrl });
    const session = await ok('signing in the ADMIN', () =>
      (admin as RootlineClient).POST('/api/auth/signin', {
        body: { email: o.admin?.email ?? '', password: o.admin?.password ?? '' },
      }),
    );
    admin.setToken(session.token);
  }

  step('Plant photos');
  const photos = await fillPhotos(c, [
    { owner: ada, plantId: tomato.id, name: 'Tomato', leaf: '#3f7d3a', fruit: '#d2412c' },
    { owner: chloe, plantId: basil.id, name: 'Basil', leaf: '#5aa04a', fruit: null },
    { owner: ben, plantId: mint.id, name: 'Mint', leaf: '#6fb36b', fruit: null },
  ]);
  step(`  ${photos.length} photos: tomato, basil and mint`);

  step('Demand: households, their history and signals');
  const demand = await fillDemand(
    c,
    [
      { person: ada, place: 'amsterdam' },
      { person: ben, place: 'utrecht' },
    ],
    admin,
  );

  let farm: DemoFarm | undefined;
  if (admin) {
    step('A vertical farm with lettuce batches');
    const femke = await person('Femke Jansen', 'femke');
    await ok('making a FARM_MANAGER', () =>
      (admin as RootlineClient).PUT('/api/admin/users/{userId}/role', {
        params: { path: { userId: femke.id } },
        body: { role: 'FARM_MANAGER' },
      }),
    );
    // The role travels in the session: sign in again to hold it.
    const again = await signIn(femke.client, femke.email);
    femke.token = again.token;
    accounts.push({ name: femke.name, email: femke.email, role: 'FARM_MANAGER' });
    farm = await fillFarm(c, femke);
  } else {
    step(
      'Vertical farm left out: it needs a FARM_MANAGER, which only an ADMIN can make (set ADMIN_EMAIL, ADMIN_PASSWORD)',
    );
  }

  step('Marketplace listings and offers');
  const list = (
    p: Person,
    body: {
      title: string;
      description: string;
      crop?: 'tomato' | 'basil';
      plantId: string;
      price: number;
      quantity: number;
    },
    at: keyof typeof PLACES,
  ) =>
    ok(`listing ${body.title}`, (headers) =>
      p.client.POST('/api/marketplace/listings', {
        body: {
          ...body,
          category: 'seedlings',
          currency: 'EUR',
          location: PLACES[at],
          privacyLevel: 'city',
          status: 'active',
        },
        headers,
      }),
    );
  const seedlings = await list(
    ben,
    {
      title: 'Tomato seedlings from a cutting',
      description: 'Ten cm, hardened off. Pick-up in Utrecht.',
      crop: 'tomato',
      plantId: tomatoCutting.id,
      price: 250,
      quantity: 12,
    },
    'utrecht',
  );
  const basilPots = await list(
    chloe,
    {
      title: 'Genovese basil in pots',
      description: 'Grown without peat, 12 cm pots.',
      crop: 'basil',
      plantId: basil.id,
      price: 300,
      quantity: 8,
    },
    'haarlem',
  );
  const mintPots = await list(
    chloe,
    {
      title: 'Spearmint divisions',
      description: 'Strong roots, ready to plant out.',
      plantId: mintDivision.id,
      price: 150,
      quantity: 6,
    },
    'haarlem',
  );
  const offer = (p: Person, listingId: string, body: { quantity: number; price: number; message: string }) =>
    ok('making an offer', (headers) =>
      p.client.POST('/api/marketplace/listings/{listingId}/offers', {
        params: { path: { listingId } },
        body,
        headers,
      }),
    );
  // An offer in each state: accepted, pending, countered, rejected and withdrawn.
  const first = await offer(ada, seedlings.id, { quantity: 2, price: 220, message: 'Could I pick them up Saturday?' });
  const second = await offer(coop, basilPots.id, {
    quantity: 5,
    price: 280,
    message: 'For our Thursday market stall.',
  });
  const third = await offer(ben, mintPots.id, { quantity: 1, price: 120, message: 'One for the balcony, please.' });
  const fourth = await offer(coop, seedlings.id, { quantity: 6, price: 150, message: 'Six for the co-op garden?' });
  const fifth = await offer(ada, basilPots.id, { quantity: 1, price: 250, message: 'Just one pot, if I may.' });
  const accepted = await ok('accepting an offer', (headers) =>
    ben.client.POST('/api/marketplace/offers/{offerId}/accept', { params: { path: { offerId: first.id } }, headers }),
  );
  const countered = await ok('countering an offer', (headers) =>
    chloe.client.POST('/api/marketplace/offers/{offerId}/counter', {
      params: { path: { offerId: third.id } },
      body: { price: 140 },
      headers,
    }),
  );
  const rejected = await ok('rejecting an offer', (headers) =>
    ben.client.POST('/api/marketplace/offers/{offerId}/reject', { params: { path: { offerId: fourth.id } }, headers }),
  );
  const withdrawn = await ok('withdrawing an offer', (headers) =>
    ada.client.POST('/api/marketplace/offers/{offerId}/withdraw', {
      params: { path: { offerId: fifth.id } },
      headers,
    }),
  );
  const offers = [
    { id: first.id, status: accepted.status },
    { id: second.id, status: second.status },
    { id: third.id, status: countered.status },
    { id: fourth.id, status: rejected.status },
    { id: fifth.id, status: withdrawn.status },
  ];
  step(
    `  3 listings (${seedlings.id} and others), ${offers.length} offers: ${first.id} accepted, ${second.id} pending, ` +
      `${third.id} countered, ${fourth.id} rejected, ${fifth.id} withdrawn`,
  );

  return {
    accounts,
    plants,
    journeyEvents: 4,
    photos,
    demand,
    ...(farm ? { farm } : {}),
    listings: [seedlings.id, basilPots.id, mintPots.id],
    offers,
  };
}
