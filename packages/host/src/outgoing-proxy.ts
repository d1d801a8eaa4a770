import type { Agent, AgentOptions } from 'node:https';
import { SocksProxyAgent } from 'socks-proxy-agent';

/**
 * The agent for HTTP(S) that leaves the system: through the SOCKS5 proxy of `SOCKS_PROXY_URL` when one is set,
 * else undefined (Node's default agent). `tls` options (extra CAs) apply to HTTPS through the tunnel too.
 */
export function outgoingAgent(socksProxyUrl: string | undefined, tls: AgentOptions = {}): Agent | undefined {
  if (!socksProxyUrl) return undefined;
  // It serves http: and https: alike; typed as the https agent that libraries such as web-push ask for.
  return new SocksProxyAgent(socksProxyUrl, { ...tls, keepAlive: true }) as unknown as Agent;
}

/** `host:port` of a proxy address, never its credentials (for logs and status answers). */
export function proxyEndpoint(socksProxyUrl: string): { host: string; port: number; display: string } {
  const u = new URL(socksProxyUrl);
  const port = Number(u.port || 1080);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return { host, port, display: `${u.hostname}:${port}` };
}
