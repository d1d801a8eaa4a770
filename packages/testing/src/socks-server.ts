import { createServer as createTcpServer, type Socket } from 'node:net';
import { createServer as createSocksServer } from '@pondwader/socks5-server';
import { freePort } from './nats-server.js';

export interface TestSocks {
  port: number;
  /** `socks5://user:password@127.0.0.1:port` */
  url: string;
  /** Every CONNECT it was asked for, as `host:port`. */
  connects: string[];
  stop(): Promise<void>;
}

/**
 * A real SOCKS5 server (the maintained `@pondwader/socks5-server` package) with username and password, that
 * records the destination of every CONNECT and then proxies it.
 */
export async function startTestSocks(username = 'rootline', password = 's3cret-proxy'): Promise<TestSocks> {
  const port = await freePort();
  const connects: string[] = [];
  const server = createSocksServer({ auth: { username, password } });
  server.setRulesetValidator((conn) => {
    connects.push(`${conn.destAddress}:${conn.destPort}`);
    return true;
  });
  // Our own listener hands each connection to the SOCKS server, so stop() can end the ones clients keep alive.
  const open = new Set<Socket>();
  const listener = createTcpServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    server._handleConnection(socket);
  });
  await new Promise<void>((r) => listener.listen(port, '127.0.0.1', () => r()));
  return {
    port,
    url: `socks5://${username}:${password}@127.0.0.1:${port}`,
    connects,
    stop: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        listener.close(() => r());
      }),
  };
}
