import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Bus } from '@rootline/bus';
import { AppError, Envelope, SERVICE_NAMES } from '@rootline/contracts';
import { Type } from '@sinclair/typebox';
import { ok } from '../http/envelope.js';
import { callContext } from '../http/request-context.js';
import { probeServices, STATUS_TIMEOUT_MS } from '../http/service-status.js';
import { errorResponses } from '../plugins/openapi.js';

export interface HealthDeps {
  bus: Bus;
}

const TAGS = ['Operations'];
/** Probes are public and not rate limited: an orchestrator must always be able to ask. */
const PROBE_CONFIG = { public: true, rateLimit: false } as const;

/** Probes take no query parameters: an unknown one is refused (400), as on every other operation. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

const Live = Type.Object({ status: Type.Literal('ok') });
const Ready = Type.Object({
  status: Type.Literal('ok'),
  services: Type.Array(
    Type.Object({
      service: Type.String(),
      version: Type.String(),
      database: Type.Union([Type.Literal('ok'), Type.Literal('none')]),
    }),
  ),
});

/** Liveness and readiness probes, under /api/health. */
export const healthRoutes: FastifyPluginAsyncTypebox<HealthDeps> = async (app, { bus }) => {
  app.get(
    '/live',
    {
      config: { ...PROBE_CONFIG, object: { rule: 'none', why: 'the platform’s own state' } },
      logLevel: 'warn',
      schema: {
        operationId: 'checkLiveness',
        summary: 'Liveness probe',
        description:
          'Answers while the gateway process serves HTTP; it checks nothing else. It takes no query parameters ' +
          '(an unknown one is 400 VALIDATION_ERROR).',
        tags: TAGS,
        querystring: NoQuery,
        response: { 200: { ...Envelope(Live), description: 'Alive' }, ...errorResponses(['VALIDATION_ERROR']) },
      },
    },
    async () => ok({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      config: { ...PROBE_CONFIG, object: { rule: 'none', why: 'the platform’s own state' } },
      logLevel: 'warn',
      schema: {
        operationId: 'checkReadiness',
        summary: 'Readiness probe',
        description:
          'Ready when the bus answers, every back-end service is running, and each reports its database ' +
          "as 'ok' (or 'none' when it has no database). Otherwise 503 UNAVAILABLE with `details.missing` " +
          '(services not running) and `details.failing` (services that did not answer or report a failure). It ' +
          'takes no query parameters (an unknown one is 400 VALIDATION_ERROR).',
        tags: TAGS,
        querystring: NoQuery,
        response: {
          200: { ...Envelope(Ready), description: 'Ready' },
          ...errorResponses(['VALIDATION_ERROR', 'UNAVAILABLE']),
        },
      },
    },
    async (req) => {
      const [discovered, probes] = await Promise.all([
        bus.discover(STATUS_TIMEOUT_MS / 2).catch(() => null),
        probeServices(bus, callContext(req)),
      ]);
      if (!discovered) throw new AppError('UNAVAILABLE', 'Not ready: the message bus does not answer');

      const running = new Set(discovered.map((d) => d.name));
      const missing = SERVICE_NAMES.filter((name) => !running.has(name));
      const failing = probes
        .filter((p) => running.has(p.service))
        .flatMap((p) => {
          if (p.error) return [{ service: p.service, reason: p.error.message }];
          if (p.status.database === 'error') return [{ service: p.service, reason: 'database check failed' }];
          return [];
        });
      if (missing.length > 0 || failing.length > 0) {
        throw new AppError('UNAVAILABLE', 'Not ready: some services are missing or failing', { missing, failing });
      }
      const services = probes.flatMap((p) =>
        p.status && p.status.database !== 'error'
          ? [{ service: p.service, version: p.status.version, database: p.status.database }]
          : [],
      );
      return ok({ status: 'ok' as const, services });
    },
  );
};
