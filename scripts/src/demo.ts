import { randomBytes } from 'node:crypto';
import { createRootline, IDEMPOTENCY_HEADER, idempotencyKey, type RootlineClient, RootlineError } from '@rootline/sdk';

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
  farm?: { id: string; zoneId: string; batchId: string; readings: number };
  listings: string[];
  offers: { id: string; status: string }[];
}

type Answer<T> = { data?: { data: T }; error?: unknown; response: Response };

/**
 * The data of a successful call, or a RootlineError naming what failed. A rate-limited or unavailable answer is
 * retried (said in the progress output) after the wait the API names, with the same Idempotency-Key, so a write
 * happens once.
 */
async function answered<T>(
  what: string,
  call: (headers: { [IDEMPOTENCY_HEADER]: string }) => Promise<Answer<T>>,
  progress: (line: string) => void = () => {},
): Promise<T> {
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

const daysAgo = (days: number, hour = 9) => {
  const at = new Date(Date.now() - days * 86_400_000);
  at.setUTCHours(hour, 0, 0, 0);
  return at.toISOString();
};

const PLACES = {
  amsterdam: { latitude: 52.3676, longitude: 4.9041, city: 'Amsterdam', country: 'NL' },
  utrecht: { latitude: 52.0907, longitude: 5.1214, city: 'Utrecht', country: 'NL' },
  leiden: { latitude: 52.1601, longitude: 4.497, city: 'Leiden', country: 'NL' },
  haarlem: { latitude: 52.3874, longitude: 4.6462, city: 'Haarlem', country: 'NL' },
  rotterdam: { latitude: 51.9225, longitude: 4.4792, city: 'Rotterdam', country: 'NL' },
} as const;

interface Person {
  name: string;
  email: string;
  id: string;
  client: RootlineClient;
}

/**
 * Fills a running Rootline with a small, realistic network through its public API: growers whose tomato and basil
 * plants have offspring over three generations, the journey of one harvest from seed to a food co-op, a vertical
 * farm with a lettuce batch and a day of sensor readings, and a marketplace with listings and offers (one accepted).
 * Every account is new (its address carries a run id), so it can run again on the same instance.
 */
export async function fillDemo(o: DemoOptions): Promise<DemoSummary> {
  const run = randomBytes(3).toString('hex');
  const step = (line: string) => o.progress(line);
  const ok = <T>(what: string, call: (headers: { [IDEMPOTENCY_HEADER]: string }) => Promise<Answer<T>>) =>
    answered(what, call, step);
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
    const { user } = await signIn(client, email);
    return { name, email, id: user.id, client };
  };

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

  let farm: DemoSummary['farm'];
  if (o.admin) {
    step('A vertical farm with a lettuce batch');
    const femke = await person('Femke Jansen', 'femke');
    const admin = createRootline({ baseUrl: o.baseUrl });
    const session = await ok('signing in the ADMIN', () =>
      admin.POST('/api/auth/signin', { body: { email: o.admin?.email ?? '', password: o.admin?.password ?? '' } }),
    );
    admin.setToken(session.token);
    await ok('making a FARM_MANAGER', () =>
      admin.PUT('/api/admin/users/{userId}/role', {
        params: { path: { userId: femke.id } },
        body: { role: 'FARM_MANAGER' },
      }),
    );
    // The role travels in the session: sign in again to hold it.
    await signIn(femke.client, femke.email);
    accounts.push({ name: femke.name, email: femke.email, role: 'FARM_MANAGER' });
    const made = await ok('registering the farm', (headers) =>
      femke.client.POST('/api/vertical-farm/register', {
        body: {
          name: 'Rotterdam Harbour Greens',
          location: PLACES.rotterdam,
          floorAreaM2: 1200,
          levels: 8,
          lightingSystem: 'led',
          climateSystem: 'hvac-dehumidification',
        },
        headers,
      }),
    );
    const zone = await ok('adding a zone', (headers) =>
      femke.client.POST('/api/vertical-farm/farms/{farmId}/zones', {
        params: { path: { farmId: made.id } },
        body: {
          name: 'Level 3 NFT A',
          level: 3,
          areaM2: 96,
          growingMethod: 'nft',
          capacity: 2400,
          setpoints: { temperatureC: 22, humidityPct: 65, co2Ppm: 1000, ppfd: 290, photoperiodHours: 16 },
        },
        headers,
      }),
    );
    const recipes = await ok('finding a lettuce recipe', () =>
      femke.client.GET('/api/vertical-farm/recipes', { params: { query: { crop: 'lettuce' } } }),
    );
    const recipe = recipes[0];
    if (!recipe) throw new Error('the instance knows no lettuce recipe');
    const batch = await ok('starting a batch', (headers) =>
      femke.client.POST('/api/vertical-farm/batch/start', {
        body: {
          farmId: made.id,
          zoneId: zone.id,
          recipeId: recipe.id,
          crop: 'lettuce',
          variety: 'Rex',
          plantCount: 720,
          seedSource: { type: 'seed-lot', seedLot: `RZ-${run}`, supplier: 'Rijk Zwaan' },
          // Sown three days ago, so the day of readings below falls within the batch.
          startedAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
        },
        headers,
      }),
    );
    // A day of readings, one an hour, with the small swings of a real room.
    const readings = Array.from({ length: 24 }, (_, h) => {
      const day = h >= 6 && h < 22;
      return {
        at: new Date(Date.now() - (24 - h) * 3_600_000).toISOString(),
        temperatureC: Math.round(((day ? 23 : 19) + Math.sin(h / 3) * 0.6) * 10) / 10,
        humidityPct: Math.round(64 + Math.cos(h / 4) * 3),
        co2Ppm: day ? 950 + (h % 5) * 10 : 700,
        ppfd: day ? 290 : 0,
        ecMsCm: 1.2,
        ph: 5.8,
      };
    });
    await ok('recording readings', () =>
      femke.client.PUT('/api/vertical-farm/batch/{batchId}/environment', {
        params: { path: { batchId: batch.id } },
        body: { readings },
      }),
    );
    farm = { id: made.id, zoneId: zone.id, batchId: batch.id, readings: readings.length };
    step(`  farm ${made.id}: zone, batch ${batch.id} (recipe ${recipe.id}), ${readings.length} readings`);
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
  const first = await offer(ada, seedlings.id, { quantity: 2, price: 220, message: 'Could I pick them up Saturday?' });
  const second = await offer(coop, basilPots.id, {
    quantity: 5,
    price: 280,
    message: 'For our Thursday market stall.',
  });
  const third = await offer(ben, mintPots.id, { quantity: 1, price: 120, message: 'One for the balcony, please.' });
  const accepted = await ok('accepting an offer', (headers) =>
    ben.client.POST('/api/marketplace/offers/{offerId}/accept', { params: { path: { offerId: first.id } }, headers }),
  );
  const offers = [
    { id: first.id, status: accepted.status },
    { id: second.id, status: second.status },
    { id: third.id, status: third.status },
  ];
  step(`  3 listings (${seedlings.id} and others), 3 offers, ${first.id} accepted`);

  return {
    accounts,
    plants,
    journeyEvents: 4,
    ...(farm ? { farm } : {}),
    listings: [seedlings.id, basilPots.id, mintPots.id],
    offers,
  };
}
