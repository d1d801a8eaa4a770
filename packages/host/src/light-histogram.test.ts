import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { lightHistogramOn } from './light-histogram.js';

describe('LightHistogram', () => {
  it('prints exactly what a prom-client histogram prints for the same observations', async () => {
    const cfg = {
      name: 'req_seconds',
      help: 'h',
      labelNames: ['service', 'outcome'] as const,
      buckets: [0.01, 0.1, 1],
    };
    const light = new Registry();
    const reference = new Registry();
    const h = lightHistogramOn(light, cfg);
    const p = new Histogram({ ...cfg, registers: [reference] });
    const ok = h.child({ service: 'plants', outcome: 'ok' });
    for (const v of [0.005, 0.01, 0.05, 0.5, 3]) {
      ok.observe(v);
      p.observe({ service: 'plants', outcome: 'ok' }, v);
    }
    h.observe({ service: 'farm', outcome: 'INTERNAL' }, 0.2);
    p.observe({ service: 'farm', outcome: 'INTERNAL' }, 0.2);
    expect(await light.metrics()).toBe(await reference.metrics());
    expect(await light.metrics()).toContain('req_seconds_bucket{le="0.01",service="plants",outcome="ok"} 2');
    expect(await light.metrics()).toContain('req_seconds_count{service="plants",outcome="ok"} 5');
  });

  it('is created once per registry and name', () => {
    const registry = new Registry();
    const cfg = { name: 'x_seconds', help: 'h', labelNames: ['a'] as const, buckets: [1] };
    expect(lightHistogramOn(registry, cfg)).toBe(lightHistogramOn(registry, cfg));
  });
});
