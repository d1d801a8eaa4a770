import { randomBytes } from 'node:crypto';
import { type Bus, createMemoryBroker, createNatsBus } from '@rootline/bus';
import { type NatsServerHandle, startNatsServer } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostLogger, createLogger, serviceLogger } from './logger.js';

/** Every key that appears twice in one object of a JSON text (JSON.parse would silently keep the last). */
function duplicateKeys(text: string): string[] {
  const dups: string[] = [];
  const stack: { keys: Set<string>; expectKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) dups.push(key);
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{') stack.push({ keys: new Set(), expectKey: true });
    else if (c === '[') stack.push({ keys: new Set(), expectKey: false });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && stack.at(-1)?.keys.size) stack[stack.length - 1]!.expectKey = true;
  }
  return dups;
}

function sink() {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

describe('structured logs', () => {
  it('detects a duplicate key (the check the other tests rely on)', () => {
    expect(duplicateKeys('{"service":"rootline","a":{"service":1},"service":"plants"}')).toEqual(['service']);
    expect(duplicateKeys('{"a":[{"b":1},{"b":2}],"s":"x,\\"b\\":"}')).toEqual([]);
  });

  it('a single-service process names the service once, also in child loggers', () => {
    const out = sink();
    createLogger('plants', 'info', out).child({ requestId: 'req_1' }).info({ plantId: 'plt_1' }, 'stored');
    const line = out.lines[0] ?? '';
    expect(duplicateKeys(line)).toEqual([]);
    expect(JSON.parse(line)).toMatchObject({ service: 'plants', requestId: 'req_1', plantId: 'plt_1', msg: 'stored' });
  });

  // Regression: the embedded host's base said service "rootline" and each child added its own service again.
  it('a process hosting several services names each line’s service exactly once', () => {
    const out = sink();
    const host = createHostLogger('info', out);
    serviceLogger(host, 'plants').child({ requestId: 'req_2' }).info('one');
    serviceLogger(host, 'gateway').warn('two');
    expect(out.lines).toHaveLength(2);
    for (const line of out.lines) expect(duplicateKeys(line)).toEqual([]);
    expect(out.lines.map((l) => JSON.parse(l).service)).toEqual(['plants', 'gateway']);
  });

  describe('the buses log through the service’s logger', () => {
    let nats: NatsServerHandle;
    beforeAll(async () => {
      nats = await startNatsServer();
    });
    afterAll(async () => {
      await nats?.stop();
    });

    const cases: [string, (log: ReturnType<typeof createLogger>) => Promise<Bus>][] = [
      ['nats', (log) => createNatsBus({ url: nats.url, name: 'plants', log })],
      ['memory', async (log) => createMemoryBroker({ log }).connect('plants')],
    ];
    it.each(cases)('%s: a failing consumer is one JSON line with the error, keys unique', async (_, open) => {
      const out = sink();
      const bus = await open(createLogger('plants', 'info', out));
      const tag = randomBytes(4).toString('hex');
      const sub = await bus.consume({
        durable: `log-${tag}`,
        subject: `evt.plants.${tag}.failed`,
        maxDeliver: 1,
        handler: async () => {
          throw new Error('consumer broke');
        },
      });
      await bus.publish({
        id: `evt_${tag}`,
        subject: `evt.plants.${tag}.failed`,
        occurredAt: new Date(0).toISOString(),
        payload: {},
        headers: {},
      });
      await expect.poll(() => out.lines.length, { timeout: 5000 }).toBeGreaterThan(0);
      await sub.stop();
      await bus.close();
      const line = out.lines[0] ?? '';
      expect(duplicateKeys(line)).toEqual([]);
      const parsed = JSON.parse(line);
      expect(parsed).toMatchObject({ service: 'plants', err: { message: 'consumer broke' } });
      expect(parsed.msg).toContain(`evt_${tag}`);
    });
  });
});
