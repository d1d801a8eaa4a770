import { type NatsServerHandle, startNatsServer } from '@rootline/testing';
import { connect, nanos, StorageType } from 'nats';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_MAX_AGE_MS, EVENT_SUBJECTS } from './defaults.js';
import { createNatsBus } from './nats.js';

const quiet = { info() {}, warn() {}, error() {} };
const event = (id: string) => ({
  id,
  subject: 'evt.test.thing.happened',
  occurredAt: new Date(0).toISOString(),
  payload: {},
  headers: {},
});

async function streamMaxAge(url: string): Promise<number> {
  const nc = await connect({ servers: url });
  try {
    return (await (await nc.jetstreamManager()).streams.info('EVENTS')).config.max_age;
  } finally {
    await nc.close();
  }
}

describe('event stream retention', () => {
  let server: NatsServerHandle | undefined;
  afterEach(async () => {
    await server?.stop();
  });

  it('creates the stream with a maximum age (7 days by default, or as configured)', async () => {
    server = await startNatsServer();
    const bus = await createNatsBus({ url: server.url, name: 'retention', log: quiet });
    await bus.publish(event('evt_1'));
    await bus.close();
    expect(await streamMaxAge(server.url)).toBe(nanos(EVENT_MAX_AGE_MS));
  });

  it('gives a stream created without a maximum age the configured one', async () => {
    server = await startNatsServer();
    const nc = await connect({ servers: server.url });
    await (await nc.jetstreamManager()).streams.add({
      name: 'EVENTS',
      subjects: [EVENT_SUBJECTS],
      storage: StorageType.File,
    });
    await nc.close();
    expect(await streamMaxAge(server.url)).toBe(0);
    const bus = await createNatsBus({ url: server.url, name: 'retention', log: quiet, eventMaxAgeMs: 3_600_000 });
    await bus.publish(event('evt_2'));
    await bus.close();
    expect(await streamMaxAge(server.url)).toBe(nanos(3_600_000));
  });
});
