import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { gaugeReadAt, serviceMetrics } from './metrics.js';
import { startMetricsListener } from './metrics-listener.js';
import { createPeriodic } from './periodic.js';

const log = createLogger('test', 'silent');

describe('gauges read at scrape time', () => {
  it('adds the readings of every source with the same labels, leaves a failing source out, forgets removed ones', async () => {
    const registry = new Registry();
    const cfg = { name: 'outbox_backlog', help: 'h', labelNames: ['service'] as const };
    gaugeReadAt(registry, cfg, () => [{ labels: { service: 'plants' }, value: 2 }]);
    const second = gaugeReadAt(registry, cfg, async () => [{ labels: { service: 'plants' }, value: 3 }]);
    gaugeReadAt(registry, cfg, () => [{ labels: { service: 'farm' }, value: 1 }]);
    gaugeReadAt(registry, cfg, async () => {
      throw new Error('database down');
    });
    let text = await registry.metrics();
    expect(text).toContain('outbox_backlog{service="plants"} 5');
    expect(text).toContain('outbox_backlog{service="farm"} 1');
    second();
    text = await registry.metrics();
    expect(text).toContain('outbox_backlog{service="plants"} 2');
  });

  it('stops reporting a service once it stops', async () => {
    const registry = new Registry();
    const m = serviceMetrics(registry, 'notify');
    m.gauge({ name: 'queue_depth', help: 'h' }, () => [{ labels: {}, value: 7 }]);
    expect(await registry.metrics()).toContain('queue_depth 7');
    m.stop();
    expect(await registry.metrics()).not.toContain('queue_depth 7');
  });
});

describe('background runs', () => {
  it('observes each run of a periodic task by job and outcome', async () => {
    const registry = new Registry();
    const metrics = serviceMetrics(registry, 'notify');
    let n = 0;
    const p = createPeriodic({
      everyMs: 60_000,
      log,
      what: 'delivery round',
      job: 'notify-delivery-round',
      metrics,
      run: async () => {
        n += 1;
        if (n === 2) throw new Error('smtp down');
      },
    });
    p.start();
    await expect.poll(() => n).toBe(1);
    p.wake();
    await expect.poll(() => n).toBe(2);
    await p.stop();
    const text = await registry.metrics();
    expect(text).toContain(
      'job_run_duration_seconds_count{service="notify",task="notify-delivery-round",outcome="ok"} 1',
    );
    expect(text).toContain(
      'job_run_duration_seconds_count{service="notify",task="notify-delivery-round",outcome="error"} 1',
    );
  });
});

describe('the metrics listener of a service process', () => {
  it('serves /metrics, the liveness probe, and readiness as the check answers; nothing else', async () => {
    const registry = new Registry();
    serviceMetrics(registry, 'farm').counter({ name: 'harvests_total', help: 'h' }).inc(3);
    let ready = false;
    const listener = await startMetricsListener({ registry, port: 0, host: '127.0.0.1', ready: async () => ready });
    const url = `http://127.0.0.1:${listener.port}`;
    try {
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(await metrics.text()).toContain('harvests_total 3');
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      expect((await fetch(`${url}/health/ready`)).status).toBe(503);
      ready = true;
      expect((await fetch(`${url}/health/ready`)).status).toBe(200);
      expect((await fetch(`${url}/api/plants`)).status).toBe(404);
      expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await listener.close();
    }
  });
});
