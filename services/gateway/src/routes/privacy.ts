import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PrivacyStatus } from '@rootline/contracts';
import type { Clock } from '@rootline/host';
import { localRoute } from '../http/local-route.js';
import { probeSocks } from '../privacy/socks-probe.js';

export interface PrivacyRouteDeps {
  clock: Clock;
  socksProxyUrl: string | undefined;
  checkTarget: string;
  timeoutMs: number;
  hiddenServiceHostname: string | undefined;
}

/** The anonymity-network status under /api/privacy. */
export const privacyRoutes: FastifyPluginAsyncTypebox<PrivacyRouteDeps> = async (app, deps) => {
  localRoute(app, {
    method: 'GET',
    url: '/status',
    operationId: 'getPrivacyStatus',
    summary: 'Anonymity network status',
    description:
      'Whether the SOCKS5 proxy of `SOCKS_PROXY_URL` (e.g. Tor) is reachable and completes a handshake: a TCP ' +
      'connection to it, then a SOCKS5 greeting and CONNECT to `SOCKS_CHECK_TARGET`, answered as granted. ' +
      'Outgoing HTTP (webhooks, Web Push) goes through that proxy when it is configured. Also the hidden-service ' +
      '(.onion) hostname when `HIDDEN_SERVICE_HOSTNAME` is set. The proxy is shown as host:port, never with ' +
      'credentials. Checked on each call.',
    tags: ['Privacy'],
    policy: { public: true, object: { rule: 'none', why: 'the platform’s own state' } },
    reply: PrivacyStatus,
    replyExample: {
      socks: {
        configured: true,
        proxy: '127.0.0.1:9050',
        reachable: true,
        handshake: true,
        checkTarget: 'check.torproject.org:443',
        latencyMs: 182,
        error: null,
      },
      outgoingHttpProxied: true,
      hiddenService: { configured: true, hostname: 'rootlinexampleabcdefghijklmnopqrstuvwxyz234567abcdefgh.onion' },
      checkedAt: '2026-01-01T00:00:00.000Z',
    },
    handler: async () => {
      const socks = deps.socksProxyUrl
        ? await probeSocks(deps.socksProxyUrl, deps.checkTarget, deps.timeoutMs, deps.clock)
        : {
            configured: false,
            proxy: null,
            reachable: false,
            handshake: false,
            checkTarget: null,
            latencyMs: null,
            error: null,
          };
      return {
        socks,
        outgoingHttpProxied: Boolean(deps.socksProxyUrl),
        hiddenService: {
          configured: Boolean(deps.hiddenServiceHostname),
          hostname: deps.hiddenServiceHostname ?? null,
        },
        checkedAt: deps.clock.now().toISOString(),
      };
    },
  });
};
