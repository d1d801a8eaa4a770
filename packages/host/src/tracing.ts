import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

export type { Span };
export { SpanKind };

/** Set only while an OpenTelemetry SDK is registered by `startTracing`; otherwise no span is ever made. */
let tracer: Tracer | undefined;

/** Whether spans are recorded in this process (OTLP export configured and started). */
export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`, else none. */
export function otlpTracesEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.OTEL_SDK_DISABLED === 'true') return undefined;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export interface Tracing {
  /** Exports the spans still buffered. */
  flush(): Promise<void>;
  /** Exports what is buffered and stops recording spans. */
  shutdown(): Promise<void>;
}

/**
 * Starts tracing when an OTLP endpoint is configured (see `otlpTracesEndpoint`): loads the OpenTelemetry SDK,
 * exports spans over OTLP/HTTP in batches, and names the process `serviceName` (OTEL_SERVICE_NAME overrides it).
 * Without an endpoint it loads nothing and returns undefined, and the instrumentation costs one check per call.
 */
export async function startTracing(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
  endpoint = otlpTracesEndpoint(env),
): Promise<Tracing | undefined> {
  if (!endpoint) return undefined;
  if (tracer) throw new Error('tracing is already started in this process');
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }))],
  });
  // Registers the provider, the W3C propagator and the async-hooks context manager globally.
  provider.register();
  tracer = trace.getTracer('rootline');
  return {
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      tracer = undefined;
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Starts a span whose parent is the W3C `traceparent` a message carried (a new trace when it carries none or a
 * malformed one). Returns undefined when tracing is off, so callers skip all span work.
 */
export function startSpan(
  name: string,
  kind: SpanKind,
  traceparent: string | undefined,
  attributes?: Attributes,
): Span | undefined {
  if (!tracer) return undefined;
  let parent = ROOT_CONTEXT;
  const m = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (m && !/^0+$/.test(m[1]!) && !/^0+$/.test(m[2]!)) {
    parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: m[1]!,
      spanId: m[2]!,
      traceFlags: Number.parseInt(m[3]!, 16),
      isRemote: true,
    });
  }
  return tracer.startSpan(name, { kind, ...(attributes ? { attributes } : {}) }, parent);
}

/** The W3C `traceparent` naming `span` as the parent of what follows it (sent on in message headers). */
export function traceparentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** Ends a span, marking it failed with `error` (a message or an exception) when one is given. */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    if (error instanceof Error) span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}
