import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'infra', 'observability');
/** promtool from Debian's `prometheus` package (`.ci/run` installs it); PROMTOOL names another binary. */
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';

function promtool(...args: string[]): string {
  return execFileSync(PROMTOOL, args, { cwd: DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('Prometheus configuration and alert rules (promtool)', () => {
  it.each(['prometheus.yml', 'prometheus-kubernetes.yml'])('%s is a valid configuration with its rule file', (f) => {
    expect(promtool('check', 'config', f)).toMatch(/SUCCESS: .* is valid prometheus config file syntax/);
  });

  it('the alert rules are valid', () => {
    expect(promtool('check', 'rules', 'alerts.yml')).toMatch(/SUCCESS: 8 rules found/);
  });

  it('every alert passes its unit tests', () => {
    expect(promtool('test', 'rules', 'alerts.test.yml')).toContain('SUCCESS');
  });

  it('every alert has at least one unit test that expects it to fire', () => {
    const rules = readFileSync(join(DIR, 'alerts.yml'), 'utf8');
    const tests = readFileSync(join(DIR, 'alerts.test.yml'), 'utf8');
    const alerts = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]!);
    expect(alerts.length).toBe(8);
    for (const alert of alerts) {
      expect(tests, alert).toMatch(new RegExp(`alertname: ${alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
    }
  });

  it('the Grafana dashboard is provisioned from its folder and queries the provisioned data source', () => {
    const dashboard = JSON.parse(readFileSync(join(DIR, 'grafana/dashboards/rootline-overview.json'), 'utf8'));
    expect(dashboard.uid).toBe('rootline-overview');
    const panels = dashboard.panels.filter((p: { type: string }) => p.type !== 'row');
    expect(panels.length).toBeGreaterThanOrEqual(16);
    for (const p of panels) {
      expect(p.targets.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets) expect(t.expr, p.title).toMatch(/[a-z_]+/);
    }
    const provider = readFileSync(join(DIR, 'grafana/provisioning/dashboards/rootline.yml'), 'utf8');
    expect(provider).toContain('path: /var/lib/grafana/dashboards');
  });
});
