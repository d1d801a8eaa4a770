import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './nats-server.js';

const run = promisify(execFile);

/** Directory of the PostgreSQL server binaries: PG_BIN, or the newest Debian one. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  for (const v of ['17', '16', '15', '14']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  return '';
}

export interface PostgresServerHandle {
  /** URL of the server's `postgres` database as the `postgres` superuser (trust authentication). */
  adminUrl: string;
  port: number;
  /** Stops the server (fast shutdown) and removes its data directory. */
  stop(): Promise<void>;
}

export interface PostgresServerOptions {
  /** Extra server settings, `name → value` (passed as `-c name=value`). */
  settings?: Record<string, string>;
}

/**
 * Starts a private PostgreSQL server in a temporary data directory on a free loopback port, so a test or a
 * benchmark can give it settings of its own (e.g. `shared_preload_libraries`) without touching the machine's
 * server. `initdb` refuses to run as root, so as root the server runs as the `postgres` user.
 */
export async function startPostgresServer(opts: PostgresServerOptions = {}): Promise<PostgresServerHandle> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  const dir = await mkdtemp(join(tmpdir(), 'rootline-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(dir, 0o700);
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    const settings: Record<string, string> = {
      port: String(port),
      listen_addresses: '127.0.0.1',
      unix_socket_directories: dir,
      ...opts.settings,
    };
    const serverOptions = Object.entries(settings)
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(' ');
    await as('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'server.log'), '-o', serverOptions]);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  let stopped: Promise<void> | undefined;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => {
      stopped ??= (async () => {
        try {
          await as('pg_ctl', ['stop', '-m', 'fast', '-w', '-D', data]);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      })();
      return stopped;
    },
  };
}

/** A server of a replicated pair that can be stopped and started again (its files stay until the pair stops). */
export interface StartableServer {
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface ReplicatedPostgres {
  /** The primary: takes writes, streams its log to the replica. */
  primary: PostgresServerHandle;
  /** A hot standby made with `pg_basebackup -R`: read-only, replaying the primary's log as it streams. */
  replica: StartableServer;
  /** Stops both servers and removes their files. */
  stop(): Promise<void>;
}

/**
 * A private PostgreSQL primary and a streaming replica of it on free loopback ports: `initdb` for the primary
 * (`wal_level=replica`), then `pg_basebackup -R` for the replica, which starts as a hot standby following the
 * primary. As root both run as the `postgres` user, as `startPostgresServer` does.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const primary = await startPostgresServer({ settings: { wal_level: 'replica', max_wal_senders: '5' } });
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  const dir = await mkdtemp(join(tmpdir(), 'rootline-pg-replica-'));
  const data = join(dir, 'data');
  const port = await freePort();
  const start = () =>
    as('pg_ctl', [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-o',
      `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c hot_standby=on`,
    ]).then(() => {});
  let running = false;
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await chmod(dir, 0o700);
    const source = ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'];
    await as('pg_basebackup', ['-D', data, '-R', '-X', 'stream', '--no-sync', ...source]);
    await start();
    running = true;
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    await primary.stop();
    throw err;
  }
  const replica: StartableServer = {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (!running) return;
      await as('pg_ctl', ['stop', '-m', 'fast', '-w', '-D', data]);
      running = false;
    },
    async start() {
      if (running) return;
      await start();
      running = true;
    },
  };
  let stopped: Promise<void> | undefined;
  return {
    primary,
    replica,
    stop: () => {
      stopped ??= (async () => {
        try {
          await replica.stop();
        } finally {
          await rm(dir, { recursive: true, force: true });
          await primary.stop();
        }
      })();
      return stopped;
    },
  };
}
