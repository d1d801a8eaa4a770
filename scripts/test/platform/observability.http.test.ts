import { service as chainMiner } from '@rootline/chain-miner';
import { startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createMetricsRegistry, startTracing, type Tracing } from '@rootline/host';
import { service as plants } from '@rootline/plants';
import { type OtlpReceiver, plantInput, type ReceivedSpan, startOtlpReceiver } from '@rootline/testing';
import { service as transparency } from '@rootline/transparency';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The value of one sample in Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('tracing and metrics of a registration, gateway to audit log, on NATS and PostgreSQL', () => {
  let receiver: OtlpReceiver;
  let tracing: Tracing | undefined;
  let p: TestPlatform;
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    tracing = await startTracing('rootline-test', {}, receiver.url);
    // One registry for services and gateway, as in embedded mode: /api/metrics serves them all.
    p = await startTestPlatform(
      [chainMiner, plants, transparency],
      { CHAIN_DIFFICULTY: '8' },
      {
        metrics: createMetricsRegistry(),
      },
    );
  }, 60_000);

  afterAll(async () => {
    await p?.stop();
    await tracing?.shutdown();
    await receiver?.stop();
  });

  it('sees one trace from the HTTP request through plants and its outbox to the audit-log consumer', async () => {
    const token = await p.token('ADMIN', 'usr_traced');
    const res = await p.app.inject({
      method: 'POST',
      url: '/api/plants/register',
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      payload: plantInput({ commonName: 'Traced basil' }),
    });
    expect(res.statusCode).toBe(201);

    const inTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
    const consumer = () => inTrace().find((s) => s.name === 'consume transparency-audit-log');
    await expect
      .poll(
        async () => {
          await tracing?.flush();
          return consumer() !== undefined;
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);

    // Walk from the audit-log consumer up its parents: every hop is a span of this one trace.
    const spans = new Map(inTrace().map((s) => [s.spanId, s]));
    const chain: ReceivedSpan[] = [];
    for (let s: ReceivedSpan | undefined = consumer(); s; s = spans.get(s.parentSpanId)) chain.unshift(s);
    expect(chain.map((s) => s.name)).toEqual([
      'POST /api/plants/register',
      'request plants.plant.register',
      'plants.plant.register',
      'publish evt.plants.plant.registered',
      'consume transparency-audit-log',
    ]);
    // The first hop's parent is the caller's span, from the traceparent it sent.
    expect(chain[0]?.parentSpanId).toBe('00f067aa0ba902b7');
    expect(chain[4]?.attributes['messaging.destination.name']).toBe('evt.plants.plant.registered');
  });

  it('serves the RED metrics of the endpoints, consumers, outbox and the ledger at /api/metrics', async () => {
    const token = await p.token('ADMIN', 'usr_metrics');
    const registered = await p.http('POST', '/api/plants/register', { token, body: plantInput() });
    expect(registered.status).toBe(201);
    const scrape = async () => (await p.app.inject({ url: '/api/metrics' })).body;

    await expect
      .poll(
        async () =>
          sample(
            await scrape(),
            'consumer_event_duration_seconds_count{service="transparency",consumer="transparency-audit-log",outcome="ok"}',
          ) ?? 0,
        { timeout: 15_000, interval: 200 },
      )
      .toBeGreaterThanOrEqual(2);
    const text = await scrape();
    expect(
      sample(
        text,
        'endpoint_request_duration_seconds_count{service="plants",subject="plants.plant.register",outcome="ok"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'chain_blocks_mined_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'chain_hashes_total')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'chain_mempool_waiting')).toBe(0);
    // The block just mined started the proof-of-work threads; they stay for CHAIN_MINER_IDLE_SECONDS.
    expect(sample(text, 'chain_pow_threads_running')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'outbox_backlog{service="plants"}')).toBeGreaterThanOrEqual(0);
    expect(
      sample(text, 'consumer_lag{service="transparency",consumer="transparency-audit-log"}'),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'ledger_intents{service="plants",state="failed"}')).toBe(0);
    expect(sample(text, 'sse_clients')).toBe(0);
    expect(sample(text, 'websocket_clients')).toBe(0);
    // The gateway's own families share the registry.
    expect(text).toContain(
      'http_request_duration_seconds_count{method="POST",route="/api/plants/register",status="201"}',
    );
    // No label carries an id: the plant's id appears nowhere.
    expect(text).not.toContain(registered.body.data.id);
  });
});
