import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_MAX_DAYS,
  analyticsExportGet,
  analyticsFarmsGet,
  analyticsOverviewGet,
  analyticsPlantsGet,
  analyticsSustainabilityGet,
  analyticsTransportGet,
  type RequestOf,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { type BusRouteDeps, busRoute, requestParts } from '../http/bus-route.js';
import { callContext } from '../http/request-context.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';
import { CsvFile, downloadResponse, EXPORT_RULE } from './export-docs.js';

const TAGS = ['Analytics'];
const POLICY = { permission: 'analytics:read' } as const;

const RANGE =
  `Period: \`from\` and \`to\` (UTC days, both included; default the ${ANALYTICS_DEFAULT_DAYS} days ending today, ` +
  `at most ${ANALYTICS_MAX_DAYS} days, else 400 VALIDATION_ERROR with \`details.field\`), \`groupBy\` day (default), ` +
  'week (from Monday) or month; each row names its period by its first day. Figures come from read models kept ' +
  'current by the domain events, so a write shows up within moments of its answer. Fields: docs/analytics.md.';

/** Network analytics under /api/analytics: aggregates for anyone signed in, a user’s own figures for that user. */
export const analyticsRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  busRoute(app, deps, {
    method: 'GET',
    url: '/overview',
    summary: 'Overview of the network',
    description:
      'Plants registered and propagated, journey events with distance and kg CO2e, seed saving and sharing, farm ' +
      `batches, harvests, yield and failures: totals over the period and one row per period.\n\n${RANGE}`,
    tags: TAGS,
    policy: {
      ...POLICY,
      object: { rule: 'none', why: 'network-wide aggregates; per-user figures only the caller’s own' },
    },
    subject: analyticsOverviewGet,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/plants',
    summary: 'Plants registered',
    description:
      'Plants registered per period, split by `by`: none (default), species (the scientific name given at ' +
      'registration, else the common name) or privacyLevel. Totals include the offspring propagated from a plant ' +
      `on the network.\n\n${RANGE}`,
    tags: TAGS,
    policy: {
      ...POLICY,
      object: { rule: 'none', why: 'network-wide aggregates; per-user figures only the caller’s own' },
    },
    subject: analyticsPlantsGet,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/transport',
    summary: 'Journey events, distance and carbon',
    description:
      'Journey events in force (a correction replaces the event it corrects), kilometres and kg CO2e per period, ' +
      'split by `by`: none (default), kind (seed-acquisition … seed-sharing) or mode (transport mode). An event ' +
      `counts on the UTC day of its \`eventTime\`.\n\n${RANGE}`,
    tags: TAGS,
    policy: {
      ...POLICY,
      object: { rule: 'none', why: 'network-wide aggregates; per-user figures only the caller’s own' },
    },
    subject: analyticsTransportGet,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/farms',
    summary: 'Vertical farming',
    description:
      'Crop batches started, harvested (with kg) and failed across all farms per period, split by `by`: none ' +
      '(default) or crop. A failure names no crop, so with by=crop it is in the row whose key is null. One farm’s ' +
      `own analytics: \`/api/vertical-farm/farms/{farmId}/analytics\`.\n\n${RANGE}`,
    tags: TAGS,
    policy: {
      ...POLICY,
      object: { rule: 'none', why: 'network-wide aggregates; per-user figures only the caller’s own' },
    },
    subject: analyticsFarmsGet,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/sustainability',
    summary: 'Carbon and seed saving',
    description:
      'kg CO2e, kilometres and events per transport mode, seed-saving and seed-sharing events: network-wide, and ' +
      'with `userId` also for the events that user handled (only the user or an ADMIN: 403 FORBIDDEN otherwise). ' +
      `For an ADMIN, \`topUsers\` lists the users with most kg CO2e; null for others.\n\n${RANGE}`,
    tags: TAGS,
    policy: {
      ...POLICY,
      object: { rule: 'none', why: 'network-wide aggregates; per-user figures only the caller’s own' },
    },
    subject: analyticsSustainabilityGet,
    errors: ['FORBIDDEN'],
  });

  const exportParts = requestParts({ method: 'GET', url: '/export', subject: analyticsExportGet });
  app.route({
    method: 'GET',
    url: '/export',
    config: {
      ...POLICY,
      object: { rule: 'none', why: 'network-wide aggregates; per-user figures only the caller’s own' },
    },
    schema: operationSchema({
      ...exportParts,
      operationId: 'exportAnalytics',
      summary: 'Export a dataset as CSV or JSON',
      description:
        '`dataset` plants, transport, farms or sustainability (network-wide figures only) as a file, ' +
        '`rootline-<dataset>-<from>-<to>.csv` or `.json`: `format=csv` (default; cells that a spreadsheet would run ' +
        'as a formula are prefixed with a quote) or `json` (an array of the rows, each with every column of the ' +
        'dataset, null where it has none). `X-Total-Count` is the number of rows. `by` takes the dimensions of the ' +
        'dataset’s own endpoint (mode for sustainability); another is 400 with `details.field` by. The rows are ' +
        `those of the endpoint’s \`series\`.\n\n${EXPORT_RULE}\n\n${RANGE}`,
      tags: TAGS,
      status: 200,
      success: downloadResponse({
        'text/csv': CsvFile('period,key,events,distanceKm,kgCo2e\n2026-11-01,bicycle,2,12.5,0\n'),
        'application/json': Type.Array(Type.Record(Type.String(), Type.Unknown()), {
          description: 'One object per row; the columns are the keys',
          examples: [[{ period: '2026-11-01', key: 'bicycle', events: 2, distanceKm: 12.5, kgCo2e: 0 }]],
        }),
      }),
      errors: [...gatewayErrorCodes({ ...exportParts, policy: POLICY }), 'UNAVAILABLE'],
    }),
    handler: async (req, reply) => {
      const input = req.query as RequestOf<typeof analyticsExportGet>;
      const file = await call(deps.bus, analyticsExportGet, input, callContext(req), deps.timeoutMs);
      reply.type(file.contentType);
      reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      reply.header('cache-control', 'no-store');
      reply.header('x-total-count', String(file.rows));
      return file.body;
    },
  });
};
