import type { Bus, Subscription } from '@rootline/bus';
import { recentWrite } from '@rootline/contracts';
import type { Clock } from '@rootline/host';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller wrote within the window: its reads go to the primary database (`CallContext.readPrimary`). */
    readonly readPrimary: boolean;
  }
}

/** Methods that change nothing; every other method that succeeds counts as a write. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who wrote: the signed-in account, else the client's address (anonymous registration). */
export function writerKey(req: FastifyRequest): string {
  return req.actor ? `user:${req.actor.id}` : `ip:${req.ip}`;
}

/**
 * Callers who wrote recently, each until a time in epoch milliseconds. Bounded: past `max` callers the oldest
 * entry goes first (an evicted caller's next reads may hit a replica that is at most a check behind).
 */
export class RecentWriters {
  private readonly until = new Map<string, number>();

  constructor(private readonly max = 100_000) {}

  /** Records that `key` wrote, its reads going to the primary until `until`; a later time already held stays. */
  note(key: string, until: number): void {
    const held = this.until.get(key);
    if (held !== undefined && held >= until) return;
    // Deleted and set again so the Map's order stays the order of the windows' ends, oldest first.
    this.until.delete(key);
    this.until.set(key, until);
    if (this.until.size > this.max) this.until.delete(this.until.keys().next().value as string);
  }

  /** The end of `key`'s window, or undefined when it has none. */
  heldUntil(key: string): number | undefined {
    return this.until.get(key);
  }

  /** Whether `key` wrote within its window at time `now`; an ended window is forgotten. */
  wroteRecently(key: string, now: number): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.until.delete(key);
    return false;
  }

  get size(): number {
    return this.until.size;
  }
}

export interface ReadYourWritesOptions {
  bus: Bus;
  clock: Clock;
  /** How long a caller's reads go to the primary after its write; 0 turns the rule off. */
  windowMs: number;
}

/**
 * Read-your-writes across read replicas: after a caller's successful write (any method but GET, HEAD and OPTIONS,
 * answered below 400), its requests carry `readPrimary` for `windowMs`, so services answer them from the primary
 * database rather than a replica that may not have replayed the write yet. The other gateway replicas hear of the
 * write by a broadcast sent before the answer, since the caller's next request may reach any of them (a request
 * that overtakes the signal, within the time a NATS message takes, may still be read from the replica).
 */
export const readYourWritesPlugin = fp<ReadYourWritesOptions>(
  async (app, o) => {
    const writers = new RecentWriters();
    const now = () => o.clock.now().getTime();
    app.decorateRequest('readPrimary', {
      getter(this: FastifyRequest) {
        return o.windowMs > 0 && writers.size > 0 && writers.wroteRecently(writerKey(this), now());
      },
    });
    if (o.windowMs === 0) return;

    let listening: Subscription | undefined;
    app.addHook('onReady', async () => {
      listening = await o.bus.listen(recentWrite.subject, (payload) => {
        const { key, until } = payload as { key?: unknown; until?: unknown };
        if (typeof key === 'string' && typeof until === 'number') writers.note(key, until);
      });
    });
    app.addHook('onClose', async () => {
      await listening?.stop();
    });

    // onSend, before the answer leaves: the signal is on its way to the other gateways before the caller can ask again.
    // A callback hook: a read, most requests, passes without a promise of its own.
    app.addHook('onSend', (req, reply, payload, done) => {
      if (READS.has(req.method) || reply.statusCode >= 400) return done(null, payload);
      const key = writerKey(req);
      const until = now() + o.windowMs;
      writers.note(key, until);
      // Every write is told (a replica started since the caller's last write knows nothing of it); one small
      // message beside the write itself.
      o.bus
        .broadcast(recentWrite.subject, { key, until })
        .catch((err: unknown) => {
          req.log.warn({ err }, 'could not tell the other gateways of a write; their reads may lag it');
        })
        .then(() => done(null, payload));
    });
  },
  { name: 'rootline-read-your-writes', dependencies: ['rootline-auth'] },
);
