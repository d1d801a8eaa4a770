import WebSocket from 'ws';

/** A frame the gateway sent, parsed. */
export type Frame = Record<string, unknown> & { type: string };

/**
 * A real WebSocket client (the `ws` package) that keeps every frame it received, for tests and the benchmark.
 * `open` resolves on the gateway's `welcome`, or rejects with the HTTP status of a refused upgrade.
 */
export class TestSocket {
  readonly frames: Frame[] = [];
  closed = false;
  pings = 0;
  private seq = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => this.frames.push(JSON.parse(raw.toString()) as Frame));
    ws.on('ping', () => this.pings++);
    ws.on('close', () => {
      this.closed = true;
    });
    ws.on('error', () => {});
  }

  static open(url: string, opts: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, opts);
      const client = new TestSocket(ws);
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
        });
        res.on('end', () =>
          reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, body })),
        );
      });
      ws.once('error', reject);
      const started = Date.now();
      const check = () => {
        if (client.frames.some((f) => f.type === 'welcome')) return resolve(client);
        if (client.closed) return reject(new Error('closed before welcome'));
        if (Date.now() - started > 10_000) return reject(new Error('no welcome within 10 s'));
        setTimeout(check, 5);
      };
      ws.once('open', check);
    });
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a request with a fresh `ref` and resolves with the answer that echoes it. */
  async request(message: Record<string, unknown>, timeoutMs = 10_000): Promise<Frame> {
    const ref = `r${++this.seq}`;
    this.send({ ...message, ref });
    const started = Date.now();
    for (;;) {
      const found = this.frames.find((f) => f.ref === ref);
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error(`no answer to ${JSON.stringify(message)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Frames of type `event`, optionally of one room. */
  events(room?: string): Frame[] {
    return this.frames.filter((f) => f.type === 'event' && (room === undefined || f.room === room));
  }

  close(): void {
    this.ws.terminate();
  }
}
