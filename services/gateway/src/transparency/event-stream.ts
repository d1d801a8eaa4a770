import type { Writable } from 'node:stream';
import type { Bus } from '@rootline/bus';
import { type CallContext, eventHistory, type PublicEvent, publicEventRecorded } from '@rootline/contracts';
import { call, type Logger } from '@rootline/host';

/** Events fetched from the history per request. */
const FETCH_LIMIT = 100;

/** One SSE frame: `id` is the history seq, so a reconnect resumes with Last-Event-ID. */
export function sseFrame(e: PublicEvent): string {
  const data = JSON.stringify({ id: e.id, kind: e.kind, occurredAt: e.occurredAt, data: e.data });
  return `id: ${e.seq}\nevent: ${e.kind}\ndata: ${data}\n\n`;
}

/**
 * One connected client: frames go straight to its socket while it keeps up; while the socket is full they wait in
 * a queue of at most `maxQueued` frames. A client that falls further behind is disconnected rather than held in
 * memory: it reconnects with Last-Event-ID and reads what it missed from the history.
 */
export class SseClient {
  lastSeq: number;
  private readonly queue: string[] = [];
  private blocked = false;
  private closed = false;

  constructor(
    private readonly out: Writable,
    private readonly kinds: ReadonlySet<string> | undefined,
    lastSeq: number,
    private readonly maxQueued: number,
    private readonly onClose: () => void,
  ) {
    this.lastSeq = lastSeq;
    out.on('drain', () => this.flush());
    out.on('close', () => this.close());
    out.on('error', () => this.close());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Frames waiting for the socket. */
  get queued(): number {
    return this.queue.length;
  }

  /** Sends an event unless it was sent already or its kind is filtered out. */
  offer(e: PublicEvent): void {
    if (this.closed || e.seq <= this.lastSeq) return;
    this.lastSeq = e.seq;
    if (this.kinds && !this.kinds.has(e.kind)) return;
    this.send(sseFrame(e));
  }

  /** A comment line that keeps proxies from closing an idle connection; skipped while frames wait. */
  heartbeat(): void {
    if (!this.closed && !this.blocked) this.send(': heartbeat\n\n');
  }

  send(frame: string): void {
    if (this.closed) return;
    if (this.blocked) {
      if (this.queue.length >= this.maxQueued) {
        this.close();
        return;
      }
      this.queue.push(frame);
      return;
    }
    if (!this.out.write(frame)) this.blocked = true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.out.end();
    this.onClose();
  }

  private flush(): void {
    this.blocked = false;
    while (this.queue.length > 0 && !this.blocked && !this.closed) {
      if (!this.out.write(this.queue.shift() as string)) this.blocked = true;
    }
  }
}

export interface EventHubOptions {
  bus: Bus;
  log: Logger;
  timeoutMs: number;
  /** How often the history is read while clients are connected, besides the signals that say something new. */
  pollMs: number;
  heartbeatMs: number;
  maxQueued: number;
}

/**
 * The gateway's fan-out of public events: one reader of the history per gateway, woken by the transparency
 * service's signal (and a slow poll, as a signal may be missed), passing each new event to every client.
 */
export function createEventHub(o: EventHubOptions) {
  const clients = new Set<SseClient>();
  /** Other readers in this gateway (the WebSocket rooms), handed each new event like a client. */
  const followers = new Set<(e: PublicEvent) => void>();
  const system: CallContext = { requestId: 'sse-hub' };
  let latest: number | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let timers: NodeJS.Timeout[] = [];
  let listening: Promise<{ stop(): Promise<void> }> | undefined;

  const fetchAfter = (after: number, kinds?: string) =>
    call(
      o.bus,
      eventHistory,
      { after, page: 1, limit: FETCH_LIMIT, ...(kinds ? { kind: kinds } : {}) },
      system,
      o.timeoutMs,
    );

  /** Reads what is new since the last read and hands it to every client; runs one at a time. */
  const pull = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        for (;;) {
          const page = await fetchAfter(latest ?? 0);
          if (latest === undefined) {
            latest = page.latestSeq;
            break;
          }
          for (const e of page.items) {
            for (const c of clients) c.offer(e);
            for (const f of followers) f(e);
          }
          if (page.items.length > 0) latest = page.items[page.items.length - 1]!.seq;
          if (page.items.length < FETCH_LIMIT) break;
        }
      } while (again);
    })()
      .catch((err: unknown) => o.log.warn({ err }, 'event stream: history read failed'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const start = () => {
    listening = o.bus.listen(publicEventRecorded.subject, () => void pull());
    timers = [
      setInterval(() => void pull(), o.pollMs),
      setInterval(() => {
        for (const c of clients) c.heartbeat();
      }, o.heartbeatMs),
    ];
  };
  const stop = async () => {
    for (const t of timers) clearInterval(t);
    timers = [];
    const l = listening;
    listening = undefined;
    await (await l)?.stop();
    latest = undefined;
  };

  return {
    get size() {
      return clients.size;
    },
    /**
     * Connects a client: it first receives the history after `lastEventId` (when given), then live events.
     * Without one it starts from now.
     */
    async connect(out: Writable, opts: { kinds?: string; lastEventId?: number }): Promise<SseClient> {
      if (clients.size === 0 && !listening) start();
      if (latest === undefined) await pull();
      const kinds = opts.kinds ? new Set(opts.kinds.split(',')) : undefined;
      const from = opts.lastEventId ?? latest ?? 0;
      const client: SseClient = new SseClient(out, kinds, from, o.maxQueued, () => {
        clients.delete(client);
        if (clients.size === 0 && followers.size === 0) void stop();
      });
      // Catch up from the history, then join the live clients without an await in between, so no event falls in
      // the gap: a page that is not full has covered everything up to its `latestSeq`.
      let covered = from;
      if (opts.lastEventId !== undefined) {
        while (!client.isClosed) {
          const page = await fetchAfter(covered, opts.kinds);
          for (const e of page.items) client.offer(e);
          if (page.items.length === FETCH_LIMIT) {
            covered = page.items[page.items.length - 1]!.seq;
            continue;
          }
          covered = Math.max(covered, page.latestSeq);
          if (latest === undefined || covered >= latest) break;
        }
      }
      client.lastSeq = Math.max(client.lastSeq, covered);
      clients.add(client);
      return client;
    },
    /**
     * Hands every event recorded from now on to `fn` until the returned function is called (no catch-up from the
     * history: a follower starts from now).
     */
    async follow(fn: (e: PublicEvent) => void): Promise<() => void> {
      if (!listening) start();
      if (latest === undefined) await pull();
      followers.add(fn);
      return () => {
        followers.delete(fn);
        if (clients.size === 0 && followers.size === 0) void stop();
      };
    },
    async close() {
      followers.clear();
      for (const c of [...clients]) c.close();
      await stop();
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
