import { fileURLToPath } from 'node:url';
import type { ServiceModule } from '@rootline/host';
import { TransportConfig } from './config.js';
import { type EventRecord, transportLedger } from './db/ledger.js';
import { inbox, outbox } from './db/schema.js';
import { parseEpcisSglns } from './domain/epcis-places.js';
import { queryEpcisEvents } from './handlers/epcis.js';
import { epcisCaptureHandlers, failInterruptedCaptures } from './handlers/epcis-capture.js';
import { epcisQueryHandlers } from './handlers/epcis-queries.js';
import { epcisSubscriptionHandlers, matchSubscriptions } from './handlers/epcis-subscriptions.js';
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
import { fillEventPlaces } from './jobs/backfill-places.js';
import { createScheduleJob } from './jobs/epcis-schedules.js';
import { createTracker } from './jobs/tracker.js';

/**
 * transport: journey events on the ledger, journeys, footprints, block verification, QR codes with a public
 * verification page, and the transport-tracker agent.
 */
export const service: ServiceModule<typeof TransportConfig, EventRecord> = {
  name: 'transport',
  version: '0.2.0',
  config: TransportConfig,
  db: { schema: 'transport', migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)), outbox, inbox },
  ledger: transportLedger,
  async create(ctx) {
    // The SGLNs an operator gave places (ADR 314): a setting that cannot be read stops the start.
    const places = parseEpcisSglns(ctx.config.EPCIS_SGLNS);
    const intervalMs = ctx.config.TRANSPORT_TRACKER_INTERVAL_SECONDS * 1000;
    const tracker = createTracker({
      db: ctx.db,
      log: ctx.log,
      clock: ctx.clock,
      intervalMs,
      pollMs: ctx.config.TRANSPORT_TRACKER_POLL_MS,
      metrics: ctx.metrics,
    });
    // Scheduled EPCIS subscriptions (ADR 320): each replica polls for due ones; a row lock makes one deliver each.
    const schedules = createScheduleJob(ctx, {
      pollMs: ctx.config.EPCIS_SCHEDULE_POLL_MS,
      publicUrl: ctx.config.PUBLIC_URL,
      companyPrefix: ctx.config.GS1_COMPANY_PREFIX,
      places,
    });
    let stopping = false;
    // Capture jobs under way (ADR 301): stopping waits for them.
    const captures = new Set<Promise<void>>();
    let backfill: Promise<void> = Promise.resolve();
    return {
      handlers: [
        ...recordEventHandlers(ctx, ctx.ledger, ctx.ledger.recoverAfterMs),
        acceptHandoff(ctx),
        getJourney(ctx),
        getFootprint(ctx),
        verifyBlock(ctx),
        getQr(ctx, ctx.config.PUBLIC_URL, ctx.config.GS1_COMPANY_PREFIX),
        queryEpcisEvents(ctx, ctx.config.PUBLIC_URL, ctx.config.GS1_COMPANY_PREFIX, places),
        ...epcisQueryHandlers(ctx, ctx.config.GS1_COMPANY_PREFIX, places),
        ...epcisSubscriptionHandlers(ctx, ctx.config.PUBLIC_URL, ctx.config.GS1_COMPANY_PREFIX, places),
        ...epcisCaptureHandlers(ctx, ctx.config.GS1_COMPANY_PREFIX, captures, () => stopping, places),
        renderTracePage(ctx),
        getTracker(ctx, tracker, intervalMs),
        controlTracker(ctx, tracker, intervalMs),
        getTrackerAnalytics(ctx),
        listTrackerPatterns(ctx),
        getTrackerSavings(ctx),
      ],
      subscribers: [matchSubscriptions(ctx, ctx.config.PUBLIC_URL, ctx.config.GS1_COMPANY_PREFIX, places)],
      agents: [tracker],
      start: async () => {
        backfill = fillEventPlaces(ctx, () => stopping);
        await failInterruptedCaptures(ctx);
        schedules.start();
      },
      stop: async () => {
        stopping = true;
        await schedules.stop();
        await backfill;
        await Promise.allSettled([...captures]);
      },
    };
  },
};
