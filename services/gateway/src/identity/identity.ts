import type { Bus, ServedService, Subscription } from '@rootline/bus';
import { emailLinkIssue, notifyRecipientList, sessionsChanged } from '@rootline/contracts';
import { organizationAudienceGet, organizationInvitationIssue, partyNameGet } from '@rootline/contracts/organizations';
import { createOutbox, type Database } from '@rootline/db';
import { type Clock, handle, type Logger, statisticsKeeper, toEndpoint } from '@rootline/host';
import type { GatewayConfig } from '../config.js';
import { createOrganizations } from '../organizations/organizations.js';
import { createAccounts } from './accounts.js';
import { createApiTokens } from './api-tokens.js';
import type { RateLimitStore } from './attempts/store.js';
import { migrateIdentity } from './db/migrate.js';
import { outbox as identityOutbox, identitySchema } from './db/schema.js';
import { usersAfter } from './db/users.repo.js';
import type { IdentityDeps, SessionChange } from './deps.js';
import { deriveKey } from './domain/secrets.js';
import { createOAuthFlow } from './oauth/flow.js';
import { configuredProviders } from './oauth/providers.js';
import { createPasswords, hashParams } from './passwords.js';
import { createSessionCache } from './session-cache.js';
import { createSessions, type LiveSession } from './sessions.js';
import { createAuthThrottle } from './throttle.js';

export interface IdentityOptions {
  database: Database;
  bus: Bus;
  config: GatewayConfig;
  log: Logger;
  /** Counters and blocks of the sign-in protection (Redis when configured, so replicas share them). */
  store: RateLimitStore;
  clock: Clock;
}

/** A client id without its secret (or the reverse) is a configuration mistake, not a disabled provider. */
function checkPairs(config: GatewayConfig): void {
  for (const p of ['GITHUB', 'GOOGLE'] as const) {
    if (Boolean(config[`${p}_CLIENT_ID`]) !== Boolean(config[`${p}_CLIENT_SECRET`])) {
      throw new Error(`${p}_CLIENT_ID and ${p}_CLIENT_SECRET must be set together`);
    }
  }
  if (Boolean(config.ADMIN_EMAIL) !== Boolean(config.ADMIN_PASSWORD)) {
    throw new Error('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
}

/**
 * The gateway's identity: accounts, sessions, API tokens, third-party sign-in and the sign-in limits, on the
 * gateway's own schema and outbox (its events reach the bus after their transaction commits). `start` applies
 * the migrations, creates the first ADMIN from the settings and starts the outbox relay; `stop` waits for
 * background work and stops the relay.
 */
export function createIdentity(opts: IdentityOptions) {
  const { database, bus, config, log } = opts;
  checkPairs(config);
  const outbox = createOutbox({
    database,
    table: identityOutbox,
    publish: (e) => bus.publish(e),
    log,
    // Published rows go at the next prune: identity events name people (email addresses), kept no longer than
    // needed. They carry no secrets (see emailLinkIssue).
    retentionMs: 0,
  });
  const cache = createSessionCache<LiveSession>({ ttlMs: config.SESSION_CACHE_MS, max: 100_000 });
  const forget = (change: SessionChange) =>
    'sessionId' in change ? cache.dropSession(change.sessionId) : cache.dropUser(change.userId);
  let listening: Subscription | undefined;
  let served: ServedService | undefined;
  const deps: IdentityDeps = {
    db: database.db,
    outbox,
    passwords: createPasswords(hashParams(config)),
    clock: opts.clock,
    async announceSessionChange(change) {
      forget(change);
      // Other replicas hear it at once; if the bus is down they forget the session when their cache expires.
      await bus.broadcast(sessionsChanged.subject, change).catch((err: unknown) => {
        log.warn({ err }, 'could not tell other gateway replicas about a session change');
      });
    },
  };
  const accounts = createAccounts(deps);
  // Organizations live beside the accounts they are made of, on the same schema and outbox (ADR 234).
  const organizations = createOrganizations({
    db: database.db,
    outbox,
    clock: opts.clock,
    invitationTtlMs: config.ORG_INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000,
  });
  const sessions = createSessions(deps, cache);
  const background = new Set<Promise<void>>();
  // Prepared statements keep a generic plan; refreshed statistics have them planned again as the tables grow.
  const statistics = statisticsKeeper(database, identitySchema.schemaName, log);

  return {
    accounts,
    organizations,
    sessions,
    apiTokens: createApiTokens(deps),
    oauth: createOAuthFlow(deps, {
      providers: configuredProviders(config, opts.clock),
      publicUrl: config.PUBLIC_URL,
      stateKey: deriveKey(config.JWT_SECRET, 'oauth-state'),
      sessions,
    }),
    throttle: createAuthThrottle(opts.store, opts.clock),
    csrfKey: deriveKey(config.JWT_SECRET, 'csrf'),

    /** Runs work after the answer is sent (forgot-password); `stop` waits for it. */
    background(task: () => Promise<void>): void {
      const done: Promise<void> = task()
        .catch((err: unknown) => log.error({ err }, 'background identity task failed'))
        .finally(() => background.delete(done));
      background.add(done);
    },

    async start(): Promise<void> {
      await migrateIdentity(database);
      if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
        const outcome = await accounts.bootstrapAdmin({
          email: config.ADMIN_EMAIL,
          password: config.ADMIN_PASSWORD,
          name: config.ADMIN_NAME,
        });
        log.info({ email: config.ADMIN_EMAIL, outcome }, 'first ADMIN from ADMIN_EMAIL');
      }
      listening = await bus.listen(sessionsChanged.subject, (change) => forget(change as SessionChange));
      outbox.start();
      statistics.start();
      // The sender of link emails asks for each link's secret here, by request/reply (see emailLinkIssue).
      const issueLink = handle(emailLinkIssue, ({ linkId }) => accounts.issueEmailLink(linkId));
      const issueInvitation = handle(organizationInvitationIssue, ({ invitationId }) =>
        organizations.issueLink(invitationId),
      );
      const audience = handle(organizationAudienceGet, async ({ organizationId }) => ({
        accountIds: await organizations.audience(organizationId),
      }));
      // A service that keeps a party by id alone asks its name when it records it (a seed lot's giving side).
      const partyName = handle(partyNameGet, async ({ partyId }) => ({
        name: partyId.startsWith('org_')
          ? ((await organizations.names([partyId])).get(partyId) ?? null)
          : ((await accounts.findUser(partyId))?.name ?? null),
      }));
      // notify learns the accounts that existed before it ran from here (a page at a time, in id order).
      const listRecipients = handle(notifyRecipientList, async ({ after, limit }) => ({
        items: (await usersAfter(database.db, after, limit)).map((u) => ({
          userId: u.id,
          email: u.email,
          name: u.name,
          locale: u.locale ?? null,
          updatedAt: u.updatedAt.toISOString(),
        })),
      }));
      served = await bus.serve({ name: 'gateway', version: '0.1.0' }, [
        toEndpoint(issueLink, log),
        toEndpoint(issueInvitation, log),
        toEndpoint(audience, log),
        toEndpoint(partyName, log),
        toEndpoint(listRecipients, log),
      ]);
    },

    async stop(): Promise<void> {
      await listening?.stop();
      await served?.stop();
      await Promise.all(background);
      await statistics.stop();
      await outbox.stop();
    },
  };
}

export type Identity = ReturnType<typeof createIdentity>;
