import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES } from '@rootline/contracts';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as policy from 'kubernetes-models/policy/v1';
import * as core from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const K8S = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'infra', 'k8s');
const OVERLAYS = readdirSync(join(K8S, 'overlays'));
/** kubectl with kustomize built in (`.ci/run` installs it); KUBECTL names another binary. */
const KUBECTL = process.env.KUBECTL ?? 'kubectl';

// biome-ignore lint/suspicious/noExplicitAny: a rendered manifest is read field by field, checked by the schema first
type Spec = any;
type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; spec?: Spec };

/** The schema models of the Kubernetes API (from its OpenAPI document), by apiVersion and kind. */
const MODELS: Record<string, Record<string, unknown>> = {
  v1: core,
  'apps/v1': apps,
  'autoscaling/v2': autoscaling,
  'policy/v1': policy,
};

/** Renders an overlay with `kubectl kustomize`, offline. */
function render(overlay: string): Manifest[] {
  const out = execFileSync(KUBECTL, ['kustomize', join(K8S, 'overlays', overlay)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Empty documents (a trailing `---`, as older kustomize prints) are not objects.
  return parseAllDocuments(out)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

/** Validates one object against the Kubernetes schema of its kind; throws with the schema's complaints. */
function validate(m: Manifest): void {
  const Model = MODELS[m.apiVersion]?.[m.kind] as (new (data: unknown) => { validate(): void }) | undefined;
  if (!Model) throw new Error(`no schema for ${m.apiVersion} ${m.kind} (${m.metadata?.name})`);
  new Model(m).validate();
}

/** Every service but the chain-miner (scaled by hand, ADR 017), and the gateway. */
const STATELESS = ['gateway', ...SERVICE_NAMES.filter((s) => s !== 'chain-miner')];

describe('the Kubernetes schema check', () => {
  it('refuses a Deployment that breaks the schema (so a pass means something)', () => {
    expect(() =>
      validate({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'broken' },
        spec: { replicas: 'three', template: { spec: { containers: [{ image: 'x' }] } } },
      }),
    ).toThrow(/selector|replicas|name/);
  });
});

describe.each(OVERLAYS)('overlay %s', (overlay) => {
  const manifests = render(overlay);
  const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);

  it('renders objects that all validate against the Kubernetes schemas, in the rootline namespace', () => {
    expect(manifests.length).toBeGreaterThan(30);
    for (const m of manifests) {
      expect(() => validate(m), `${m.kind}/${m.metadata.name}`).not.toThrow();
      if (m.kind !== 'Namespace') expect(m.metadata.namespace, `${m.kind}/${m.metadata.name}`).toBe('rootline');
    }
  });

  it('runs every service as a Deployment with probes, resource requests and limits, and its secrets', () => {
    const deployments = byKind('Deployment');
    for (const name of [...STATELESS, 'chain-miner']) {
      const d = deployments.find((x) => x.metadata.name === name);
      expect(d, name).toBeDefined();
      const [c] = d!.spec.template.spec.containers;
      expect(c.env.find((e: { name: string }) => e.name === 'SERVICE').value).toBe(name);
      expect(c.livenessProbe?.httpGet?.path, name).toMatch(/health\/live$/);
      expect(c.readinessProbe?.httpGet?.path, name).toMatch(/health\/(live|ready)$/);
      expect(c.resources.requests.cpu && c.resources.requests.memory, name).toBeTruthy();
      expect(c.resources.limits.cpu && c.resources.limits.memory, name).toBeTruthy();
      expect(c.envFrom.map((e: { secretRef?: { name: string } }) => e.secretRef?.name)).toContain('rootline-secrets');
      expect(d!.spec.template.metadata.annotations['prometheus.io/scrape']).toBe('true');
    }
  });

  it('autoscales the stateless services, not the chain-miner, and budgets disruptions of each', () => {
    const hpas = byKind('HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
    expect(hpas.sort()).toEqual([...STATELESS].sort());
    const pdbs = byKind('PodDisruptionBudget').map((p) => p.metadata.name);
    expect(pdbs.sort()).toEqual([...STATELESS, 'chain-miner'].sort());
    const miner = byKind('Deployment').find((d) => d.metadata.name === 'chain-miner');
    expect(miner!.spec.replicas).toBeGreaterThanOrEqual(1);
  });

  it('runs NATS with JetStream on a volume, and a headless metrics Service per service', () => {
    const nats = byKind('StatefulSet').find((s) => s.metadata.name === 'nats');
    expect(nats!.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    const conf = byKind('ConfigMap').find((c) => c.metadata.name === 'nats-config') as unknown as {
      data: Record<string, string>;
    };
    expect(conf.data['nats.conf']).toContain('jetstream');
    const headless = byKind('Service')
      .filter((s) => s.spec.clusterIP === 'None')
      .map((s) => s.metadata.name);
    for (const name of [...STATELESS, 'chain-miner']) expect(headless).toContain(`${name}-metrics`);
  });
});

describe('the overlays differ where they should', () => {
  it('small keeps PostgreSQL in the cluster; production leaves it to an operator and runs three miners and NATS servers', () => {
    const small = render('small');
    const production = render('production');
    const named = (ms: Manifest[], kind: string, name: string) =>
      ms.find((m) => m.kind === kind && m.metadata.name === name);
    expect(named(small, 'StatefulSet', 'postgres')).toBeDefined();
    expect(named(production, 'StatefulSet', 'postgres')).toBeUndefined();
    expect(named(production, 'Deployment', 'chain-miner')!.spec.replicas).toBe(3);
    expect(named(production, 'StatefulSet', 'nats')!.spec.replicas).toBe(3);
    for (const h of production.filter((m) => m.kind === 'HorizontalPodAutoscaler')) {
      expect(h.spec.minReplicas).toBeGreaterThanOrEqual(2);
    }
  });
});
