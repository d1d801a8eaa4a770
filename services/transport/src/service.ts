import { fileURLToPath } from 'node:url';
import { PublicUrlSetting, type ServiceModule, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { fillEventPlaces } from './backfill-places.js';
import { outbox } from './db/schema.js';
import { recordEventHandlers } from './handlers/events.js';
import { acceptHandoff } from './handlers/handoffs.js';
import { getFootprint, getJourney } from './handlers/journey.js';
import { getQr, renderTracePage } from './handlers/public.js';
import {
  controlTracker,
  getTracker,
  getTrackerAnalytics,
  getTrackerSavings,
  listTrackerPatterns,
} from './handlers/tracker.js';
import { verifyBlock } from './handlers/verify.js';
import { type EventRecord, transportLedger } from './recorder.js';
import { createTracker } from './tracker.js';

const TransportConfig = withBase({
  TRANSPORT_TRACKER_INTERVAL_SECONDS: Type.Number({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description: 'Time between two cycles of the transport tracker while it runs',
  }),
  TRANSPORT_TRACKER_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 5000,
    description: 'How often each replica checks whether a tracker cycle is due',
  }),
  /** QR codes point at <PUBLIC_URL>/api/transport/trace/<id>; unset, at the address the request came through. */
  PUBLIC_URL: PublicUrlSetting,
});

/**
 * transport: journey events on the ledger, journeys, footprints, block verification, QR codes with a public
 * verification page, and the transport-tracker agent.
 */
export const service: ServiceModule<typeof TransportConfig, EventRecord> = {
  name: 'transport',
  version: '0.2.0',
  config: TransportConfig,
  db: { schema: 'transport', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox },
  ledger: transportLedger,
  async create(ctx) {
    const intervalMs = ctx.config.TRANSPORT_TRACKER_INTERVAL_SECONDS * 1000;
    const tracker = createTracker({
      db: ctx.db,
      log: ctx.log,
      clock: ctx.clock,
      intervalMs,
      pollMs: ctx.config.TRANSPORT_TRACKER_POLL_MS,
      metrics: ctx.metrics,
    });
    let stopping = false;
    let backfill: Promise<void> = Promise.resolve();
    return {
      handlers: [
        ...recordEventHandlers(ctx, ctx.ledger, ctx.ledger.recoverAfterMs),
        acceptHandoff(ctx),
        getJourney(ctx),
        getFootprint(ctx),
        verifyBlock(ctx),
        getQr(ctx, ctx.config.PUBLIC_URL),
        renderTracePage(ctx),
        getTracker(ctx, tracker, intervalMs),
        controlTracker(ctx, tracker, intervalMs),
        getTrackerAnalytics(ctx),
        listTrackerPatterns(ctx),
        getTrackerSavings(ctx),
      ],
      subscribers: [],
      agents: [tracker],
      start: async () => {
        backfill = fillEventPlaces(ctx, () => stopping);
      },
      stop: async () => {
        stopping = true;
        await backfill;
      },
    };
  },
};
