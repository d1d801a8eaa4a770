import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Path of the nats-server binary: NATS_SERVER_BIN, the Debian package's, or the one on PATH. */
export function natsServerBin(): string {
  return process.env.NATS_SERVER_BIN ?? (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port. */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
      s.connect(port, '127.0.0.1');
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}

export interface NatsServerHandle {
  url: string;
  port: number;
  /** Stops the server gracefully and removes its store directory. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), keeping its store for a restart. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and store. */
  restart(): Promise<void>;
}

/**
 * Starts a private nats-server with JetStream on a free loopback port and a temporary store, so a test
 * owns its streams and can kill the server without touching anyone else's.
 */
export async function startNatsServer(): Promise<NatsServerHandle> {
  const port = await freePort();
  const storeDir = await mkdtemp(join(tmpdir(), 'rootline-nats-'));
  let child: ChildProcess | undefined;

  const launch = async () => {
    child = spawn(natsServerBin(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    await waitForPort(port);
  };
  const exit = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });

  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await exit('SIGTERM');
      await rm(storeDir, { recursive: true, force: true });
    },
    kill: () => exit('SIGKILL'),
    restart: launch,
  };
}
