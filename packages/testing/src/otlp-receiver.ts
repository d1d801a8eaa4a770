import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** A local OTLP/HTTP trace receiver (JSON encoding): the spans it got and the URL to export to. */
export interface OtlpReceiver {
  spans: ReceivedSpan[];
  /** The traces endpoint, `http://127.0.0.1:PORT/v1/traces`. */
  url: string;
  stop(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

const plainValue = (v: AnyValue): unknown => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, plainValue(a.value)]));

/**
 * Starts a receiver on 127.0.0.1 at a free port that takes OTLP/HTTP JSON exports on `/v1/traces` (as
 * `@opentelemetry/exporter-trace-otlp-http` sends them), answers 200, and keeps every span.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end();
      try {
        const doc = JSON.parse(body) as {
          resourceSpans?: {
            resource?: { attributes?: KeyValue[] };
            scopeSpans?: { spans?: (Omit<ReceivedSpan, 'service' | 'attributes'> & { attributes?: KeyValue[] })[] }[];
          }[];
        };
        for (const rs of doc.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
                kind: s.kind,
                attributes: attributesOf(s.attributes),
              });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    spans,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
