import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/** Messages a client sent to PostgreSQL, by kind (frontend protocol messages). */
export interface WireCounts {
  /** Round trips: each Sync (extended protocol) and each simple Query waits for the server's ReadyForQuery. */
  roundTrips: number;
  /** Parse messages: statements the server had to parse (a prepared statement is parsed once per connection). */
  parses: number;
  /** Execute messages: statements run. */
  executes: number;
}

export interface PgWireCounter {
  /** The URL to give the client instead of `targetUrl`: same database and user, through the counter. */
  url: string;
  /** What the clients sent so far, over every connection. */
  counts(): WireCounts;
  /** Stops listening and closes every connection through it. */
  stop(): Promise<void>;
}

/**
 * A TCP relay in front of a PostgreSQL server that counts what its clients send: round trips, parses and
 * executions, read from the frontend protocol's message headers. For tests that hold a code path to a number of
 * database round trips, counted rather than timed. No TLS (the relay must read the messages).
 */
export async function startPgWireCounter(targetUrl: string): Promise<PgWireCounter> {
  const target = new URL(targetUrl);
  const counts: WireCounts = { roundTrips: 0, parses: 0, executes: 0 };
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    let pending: Buffer = Buffer.alloc(0);
    // The startup message (and an SSL or GSS request before it) has no type byte: int32 length first.
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          // 80877103 SSLRequest, 80877104 GSSENCRequest: the real startup message follows.
          if (code !== 80877103 && code !== 80877104) started = true;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const type = String.fromCharCode(pending[0]!);
        if (type === 'S' || type === 'Q') counts.roundTrips += 1;
        if (type === 'P') counts.parses += 1;
        if (type === 'E') counts.executes += 1;
        pending = pending.subarray(1 + length);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    counts: () => ({ ...counts }),
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
