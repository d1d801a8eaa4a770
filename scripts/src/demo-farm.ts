import { DAY_MS, type DemoContext, type Person, PLACES } from './demo-context.js';

const HOUR_MS = 3_600_000;
/** Days of hourly readings of the growing batch. */
export const READING_DAYS = 7;

export interface DemoFarm {
  id: string;
  zoneId: string;
  /** The growing batch, with READING_DAYS days of hourly readings. */
  batchId: string;
  readings: number;
  /** The batch harvested today, sown 38 days ago. */
  harvestedBatchId: string;
  harvestKg: number;
}

/** A reading of a real room at `at`: lights on 06:00–22:00 UTC, small swings, now and then a dry spell. */
function reading(at: number) {
  const h = new Date(at).getUTCHours();
  const day = h >= 6 && h < 22;
  const t = at / HOUR_MS;
  return {
    at: new Date(at).toISOString(),
    temperatureC: Math.round(((day ? 22 : 19.5) + Math.sin(t / 3) * 0.6) * 10) / 10,
    humidityPct: Math.round(66 + Math.cos(t / 4) * 4 - (t % 53 < 2 ? 12 : 0)),
    co2Ppm: day ? 950 + (h % 5) * 10 : 700,
    ppfd: day ? 280 + (h % 3) * 5 : 0,
    ecMsCm: Math.round((1.2 + Math.sin(t / 24) * 0.05) * 100) / 100,
    ph: Math.round((5.9 + Math.sin(t / 30) * 0.1) * 100) / 100,
    waterTemperatureC: 20.5,
  };
}

/**
 * A vertical farm (`manager` holds FARM_MANAGER): a zone, a lettuce batch sown 38 days ago with a reading every six
 * hours and harvested today, and one sown 12 days ago with READING_DAYS days of hourly readings, so the batch page,
 * its charts and the farm's analytics all have something to show.
 */
export async function fillFarm(c: DemoContext, manager: Person): Promise<DemoFarm> {
  const client = manager.client;
  const made = await c.ok('registering the farm', (headers) =>
    client.POST('/api/vertical-farm/register', {
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
  const zone = await c.ok('adding a zone', (headers) =>
    client.POST('/api/vertical-farm/farms/{farmId}/zones', {
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
  const recipes = await c.ok('finding a lettuce recipe', () =>
    client.GET('/api/vertical-farm/recipes', { params: { query: { crop: 'lettuce' } } }),
  );
  const recipe = recipes[0];
  if (!recipe) throw new Error('the instance knows no lettuce recipe');
  const start = (variety: string, plantCount: number, daysAgo: number) =>
    c.ok(`starting the ${variety} batch`, (headers) =>
      client.POST('/api/vertical-farm/batch/start', {
        body: {
          farmId: made.id,
          zoneId: zone.id,
          recipeId: recipe.id,
          crop: 'lettuce',
          variety,
          plantCount,
          seedSource: { type: 'seed-lot', seedLot: `RZ-${c.run}-${variety}`, supplier: 'Rijk Zwaan' },
          startedAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
        },
        headers,
      }),
    );
  const record = (batchId: string, readings: ReturnType<typeof reading>[]) =>
    c.ok('recording readings', () =>
      client.PUT('/api/vertical-farm/batch/{batchId}/environment', {
        params: { path: { batchId } },
        body: { readings },
      }),
    );

  const older = await start('Salanova', 960, 38);
  const now = Date.now();
  const sixHourly = Array.from({ length: 37 * 4 }, (_, i) => reading(now - 37 * DAY_MS + i * 6 * HOUR_MS));
  await record(older.id, sixHourly);
  const harvestKg = 182.4;
  await c.ok('recording the harvest', (headers) =>
    client.POST('/api/vertical-farm/batch/{batchId}/harvest', {
      params: { path: { batchId: older.id } },
      body: { yieldKg: harvestKg, qualityGrade: 'grade-a', notes: 'Even heads, 190 g on average' },
      headers,
    }),
  );

  const batch = await start('Rex', 720, 12);
  const hours = READING_DAYS * 24;
  const hourly = Array.from({ length: hours }, (_, i) => reading(now - (hours - i) * HOUR_MS));
  await record(batch.id, hourly);
  c.step(
    `  farm ${made.id}: zone, batch ${batch.id} (recipe ${recipe.id}), ${hourly.length} readings over ` +
      `${READING_DAYS} days; batch ${older.id} harvested, ${harvestKg} kg`,
  );
  return {
    id: made.id,
    zoneId: zone.id,
    batchId: batch.id,
    readings: hourly.length,
    harvestedBatchId: older.id,
    harvestKg,
  };
}
