import { connect } from 'node:net';
import type { Clock } from '@rootline/host';
import { proxyEndpoint } from '@rootline/host';
import { SocksClient } from 'socks';

export interface SocksProbe {
  configured: true;
  proxy: string;
  reachable: boolean;
  handshake: boolean;
  checkTarget: string;
  latencyMs: number | null;
  error: string | null;
}

/** Opens (and closes) a plain TCP connection to the proxy. */
function reach(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = connect({ host, port });
    s.setTimeout(timeoutMs, () => s.destroy(new Error(`no connection within ${timeoutMs} ms`)));
    s.once('connect', () => {
      s.destroy();
      resolve();
    });
    s.once('error', reject);
  });
}

/**
 * Checks a SOCKS5 proxy in two steps: it is reachable (TCP), and a SOCKS5 handshake through it completes (greeting,
 * authentication when the URL carries credentials, CONNECT to `target` granted), by the `socks` client library.
 */
export async function probeSocks(url: string, target: string, timeoutMs: number, clock: Clock): Promise<SocksProbe> {
  const { host, port, display } = proxyEndpoint(url);
  const u = new URL(url);
  const sep = target.lastIndexOf(':');
  const result: SocksProbe = {
    configured: true,
    proxy: display,
    reachable: false,
    handshake: false,
    checkTarget: target,
    latencyMs: null,
    error: null,
  };
  const started = clock.now().getTime();
  try {
    await reach(host, port, timeoutMs);
    result.reachable = true;
    const { socket } = await SocksClient.createConnection({
      proxy: {
        host,
        port,
        type: 5,
        ...(u.username ? { userId: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : {}),
      },
      command: 'connect',
      destination: { host: target.slice(0, sep), port: Number(target.slice(sep + 1)) },
      timeout: timeoutMs,
    });
    socket.destroy();
    result.handshake = true;
    result.latencyMs = clock.now().getTime() - started;
  } catch (err) {
    result.error = err instanceof Error ? err.message.slice(0, 300) : String(err);
  }
  return result;
}
