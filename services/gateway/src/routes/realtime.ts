import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import {
  AppError,
  type ErrorCode,
  newId,
  PERMISSIONS,
  type Permission,
  RealtimeClientMessage,
  RealtimeConnection,
  RealtimeStats,
  RoleSchema,
} from '@rootline/contracts';
import type { Database } from '@rootline/db';
import { type Clock, gaugeReadAt, type Logger } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import type { BusRouteDeps } from '../http/bus-route.js';
import { toHttpError } from '../http/errors.js';
import { localRoute } from '../http/local-route.js';
import type { RateLimitStore } from '../identity/attempts/store.js';
import { findLiveSession } from '../identity/db/sessions.repo.js';
import { findUserById } from '../identity/db/users.repo.js';
import { principalOfUser } from '../plugins/auth.js';
import { assertMayJoin } from '../realtime/access.js';
import { createRealtimeHub } from '../realtime/hub.js';
import { parseRoom } from '../realtime/rooms.js';
import { createEventHub } from '../transparency/event-stream.js';

export interface RealtimeRouteDeps extends BusRouteDeps {
  log: Logger;
  /** The gateway's own database (accounts), to read the account a ticket names. */
  database: Database;
  clock: Clock;
  replicaId: string;
  publicUrl: string | undefined;
  heartbeatSeconds: number;
  maxBufferedBytes: number;
  maxRooms: number;
  ticketSeconds: number;
  /** Where used tickets are remembered until they expire (Redis when replicas share it), so each opens one socket. */
  store: RateLimitStore;
  /** Settings of the public-event reader (as the server-sent stream's). */
  events: { pollMs: number; heartbeatMs: number; maxQueued: number };
  /** Where the number of open sockets is reported (`websocket_clients`). */
  metrics?: Registry;
}

const TAGS = ['Real-time'];
const WS_PATH = '/api/realtime/ws';
/** Frames larger than this from a client close the socket (1009): clients only send small commands. */
const MAX_CLIENT_FRAME = 4096;

/** A ticket: who may open one socket before `exp`, with the permissions its credential had. */
const TicketClaims = Type.Object({
  typ: Type.Literal('realtime'),
  sub: Type.String({ minLength: 1 }),
  role: RoleSchema,
  perms: Type.Array(Type.String()),
  /** The ticket's own id: a second use of it is refused. */
  jti: Type.String({ minLength: 1 }),
  /** The session of the credential that asked for the ticket (absent for an API token). */
  sid: Type.Optional(Type.String({ minLength: 1 })),
  exp: Type.Integer(),
});
const ticketClaims = TypeCompiler.Compile(TicketClaims);
const clientMessage = TypeCompiler.Compile(RealtimeClientMessage);

const PROTOCOL =
  'Text frames of JSON. The client sends `{"type":"subscribe","room":"plant:plt_…","ref":"1"}`, `unsubscribe` alike, ' +
  'and `{"type":"ping"}`. The server answers `{"type":"subscribed"|"unsubscribed","room","ref"}`, `{"type":"pong"}` ' +
  'or `{"type":"error","ref","room","error":{"code","message"}}` (FORBIDDEN, NOT_FOUND, VALIDATION_ERROR, ' +
  'UNAVAILABLE), and pushes `{"type":"event","room","event","id","occurredAt","data"}`: `event` is a public event ' +
  'kind (see the event catalogue) or `notification` (an in-app notification, in `user:<id>`). On opening it sends ' +
  '`{"type":"welcome","connectionId","userId","heartbeatSeconds","rooms":["user:<id>"]}`: the own user room is ' +
  'joined at once. Rooms: `network` (every public event; any signed-in user), `user:<id>` (oneself), ' +
  '`plant:<id>` (a plant the caller may read), `farm:<id>` (a farm the caller owns; ADMIN any).';

/** The WebSocket endpoint, its connection initialisation and its statistics, under /api/realtime. */
export const realtimeRoutes: FastifyPluginAsyncTypebox<RealtimeRouteDeps> = async (app, deps) => {
  const events = createEventHub({ bus: deps.bus, log: deps.log, timeoutMs: deps.timeoutMs, ...deps.events });
  const hub = createRealtimeHub({
    bus: deps.bus,
    log: deps.log,
    clock: deps.clock,
    events,
    heartbeatMs: deps.heartbeatSeconds * 1000,
    maxBufferedBytes: deps.maxBufferedBytes,
    replicaId: deps.replicaId,
  });
  app.addHook('onReady', () => hub.start());
  if (deps.metrics) {
    const unregister = gaugeReadAt(
      deps.metrics,
      { name: 'websocket_clients', help: 'WebSocket connections open on this gateway' },
      () => [{ labels: {}, value: hub.stats().connections }],
    );
    app.addHook('onClose', async () => unregister());
  }
  app.addHook('preClose', async () => {
    await hub.stop();
    await events.close();
  });
  await app.register(websocket, { options: { maxPayload: MAX_CLIENT_FRAME } });

  const allowedOrigins = new Set<string>(deps.publicUrl ? [new URL(deps.publicUrl).origin] : []);

  // `?ticket=` from POST /connect: tried after the bearer token and the cookie, on this route only. The role and
  // the account are read now (a role change applies), narrowed to the permissions the credential had.
  app.addAuthenticator(async (req) => {
    const ticket = (req.query as { ticket?: unknown } | undefined)?.ticket;
    if (req.routeOptions.url !== WS_PATH || typeof ticket !== 'string' || ticket === '') return null;
    let claims: unknown;
    try {
      claims = app.jwt.verify(ticket);
    } catch {
      throw new AppError('UNAUTHORIZED', 'The ticket is invalid or has expired: ask POST /api/realtime/connect');
    }
    if (!ticketClaims.Check(claims)) throw new AppError('UNAUTHORIZED', 'The ticket is invalid');
    // Remembered a little past its expiry, after which the signature check refuses it anyway.
    const left = claims.exp * 1000 - deps.clock.now().getTime();
    const { count } = await deps.store.hit(`realtime-ticket:${claims.jti}`, Math.max(left, 0) + 60_000);
    if (count > 1) {
      throw new AppError('UNAUTHORIZED', 'The ticket was already used: ask POST /api/realtime/connect for another');
    }
    const user = await findUserById(deps.database.db, claims.sub);
    if (!user) throw new AppError('UNAUTHORIZED', 'The account of the ticket is gone');
    // A ticket asked with a session opens a socket only while that session lives: the socket closes when it ends.
    if (claims.sid !== undefined) {
      const live = await findLiveSession(deps.database.db, claims.sid);
      if (live?.user.id !== user.id) throw new AppError('UNAUTHORIZED', 'The session of the ticket has ended');
    }
    const scopes = claims.perms.filter((p): p is Permission => (PERMISSIONS as readonly string[]).includes(p));
    return principalOfUser(user, 'ticket', {
      scopes,
      expiresAt: new Date(claims.exp * 1000),
      ...(claims.sid === undefined ? {} : { sessionId: claims.sid }),
    });
  });

  app.route({
    method: 'GET',
    url: '/ws',
    config: {
      permission: 'notifications:read',
      object: { rule: 'own', why: 'rooms: the network, oneself, public plants, and farms the caller manages' },
    },
    schema: {
      // An upgrade to a WebSocket is not a request and response OpenAPI can describe (its only answer is 101, and
      // generated clients cannot call it): `connectRealtime` gives its address and docs/realtime.md its messages.
      hide: true,
      operationId: 'openRealtimeSocket',
      summary: 'Open the real-time WebSocket',
      description:
        'Upgrade to a WebSocket (RFC 6455). Authenticated by `Authorization: Bearer`, the session cookie (from ' +
        'this origin only) or `?ticket=` from `POST /api/realtime/connect` (browsers cannot send headers on a ' +
        `WebSocket). Needs \`notifications:read\`. ${PROTOCOL} The server pings every ${deps.heartbeatSeconds} s; a ` +
        `socket that missed the previous pong is closed. A socket with more than ${deps.maxBufferedBytes} bytes ` +
        `unsent is dropped (it reconnects). At most ${deps.maxRooms} rooms per socket. When the session that opened ` +
        'the socket ends (sign-out), or every session of the account does (password reset, role change), the socket ' +
        `is closed with code 4001 on every replica. Without WebSocket, use the ` +
        'server-sent stream `GET /api/transparency/events`.',
      tags: TAGS,
      querystring: Type.Object({ ticket: Type.Optional(Type.String({ maxLength: 4096 })) }),
      response: {
        101: {
          description: 'Switching Protocols: the socket is open and the server sends its `welcome` message first',
          type: 'null',
        },
      },
    },
    preValidation: async (req) => {
      // A cookie is sent by the browser whatever page opens the socket: only pages of this origin may use it.
      const origin = req.headers.origin;
      if (req.principal?.via === 'cookie' && origin && !allowedOrigins.has(origin) && origin !== originOf(req)) {
        throw new AppError('FORBIDDEN', 'A socket authenticated by the session cookie must come from this origin', {
          reason: 'origin',
        });
      }
    },
    wsHandler: (socket, req) => {
      const principal = req.principal!;
      const caller = { actor: principal.actor, permissions: principal.permissions };
      const c = hub.add(socket, caller.actor.id, principal.sessionId);
      const own = `user:${caller.actor.id}`;
      hub.join(c, own);
      const welcome = JSON.stringify({
        type: 'welcome',
        connectionId: c.id,
        userId: caller.actor.id,
        heartbeatSeconds: deps.heartbeatSeconds,
        rooms: [own],
      });
      void hub.following().then(() => hub.send(c, welcome));
      const answer = (m: Record<string, unknown>) => hub.send(c, JSON.stringify(m));
      const fail = (ref: unknown, room: unknown, code: ErrorCode, message: string) =>
        answer({ type: 'error', ref: ref ?? null, room: room ?? null, error: { code, message } });

      socket.on('message', (raw, isBinary) => {
        let m: unknown;
        try {
          m = isBinary ? undefined : JSON.parse(raw.toString());
        } catch {
          m = undefined;
        }
        if (!clientMessage.Check(m)) {
          const ref = (m as { ref?: unknown } | undefined)?.ref;
          fail(typeof ref === 'string' ? ref : null, null, 'VALIDATION_ERROR', messageError(m));
          return;
        }
        if (m.type === 'ping') {
          answer({ type: 'pong', ref: m.ref ?? null });
          return;
        }
        const { room: name, ref } = m;
        if (m.type === 'unsubscribe') {
          hub.leave(c, name);
          answer({ type: 'unsubscribed', room: name, ref: ref ?? null });
          return;
        }
        const room = parseRoom(name);
        if (!room) return fail(ref, name, 'VALIDATION_ERROR', `${name} is not a room`);
        if (!c.rooms.has(name) && c.rooms.size >= deps.maxRooms) {
          return fail(ref, name, 'VALIDATION_ERROR', `At most ${deps.maxRooms} rooms per socket`);
        }
        assertMayJoin(room, { ...caller, requestId: `${c.id}:${ref ?? 'subscribe'}` }, deps.bus, deps.timeoutMs).then(
          () => {
            hub.join(c, name);
            answer({ type: 'subscribed', room: name, ref: ref ?? null });
          },
          (err: unknown) => {
            const { body, unexpected } = toHttpError(err);
            if (unexpected) req.log.error({ err }, 'room check failed');
            fail(ref, name, body.code as ErrorCode, body.message);
          },
        );
      });
    },
    handler: async () => {
      throw new AppError('VALIDATION_ERROR', 'This address takes WebSocket upgrades only (Upgrade: websocket)');
    },
  });

  localRoute(app, {
    method: 'POST',
    url: '/connect',
    operationId: 'connectRealtime',
    summary: 'Initialise a real-time connection',
    description:
      'Answers how to open the WebSocket: its address with a short-lived ticket (for browsers, which cannot send ' +
      `an Authorization header on a WebSocket), valid ${deps.ticketSeconds} s, the heartbeat, the limit on unsent ` +
      'bytes, the rooms joinable without asking a service, and the server-sent fallback. The ticket carries the ' +
      "caller's id, role and permissions of that moment; a socket once open stays open until closed. The socket " +
      'itself, `GET /api/realtime/ws` (an upgrade to RFC 6455, authenticated by the ticket, a Bearer token or the ' +
      'session cookie of this origin; 401 or 403 before the upgrade otherwise), and its messages are described in ' +
      'docs/realtime.md: OpenAPI describes requests and responses, not sockets.',
    tags: TAGS,
    policy: { permission: 'notifications:read', object: { rule: 'own', why: 'a ticket for the caller' } },
    reply: RealtimeConnection,
    replyExample: {
      url: 'wss://api.rootline.example/api/realtime/ws?ticket=eyJhbGciOiJIUzI1NiJ9.e30.sig',
      ticket: 'eyJhbGciOiJIUzI1NiJ9.e30.sig',
      ticketExpiresAt: '2026-01-01T00:01:00.000Z',
      heartbeatSeconds: 30,
      maxBufferedBytes: 1048576,
      rooms: ['network', 'user:usr_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
      fallback: '/api/transparency/events',
    },
    handler: async (req) => {
      const principal = req.principal!;
      const expires = Math.floor(deps.clock.now().getTime() / 1000) + deps.ticketSeconds;
      const ticket = app.jwt.sign({
        typ: 'realtime',
        sub: principal.actor.id,
        role: principal.actor.role,
        perms: [...principal.permissions],
        jti: newId('rtk', deps.clock.now().getTime()),
        ...(principal.sessionId ? { sid: principal.sessionId } : {}),
        exp: expires,
      });
      const base = deps.publicUrl ? new URL(deps.publicUrl).origin : originOf(req);
      const url = `${base.replace(/^http/, 'ws')}${WS_PATH}?ticket=${encodeURIComponent(ticket)}`;
      return {
        url,
        ticket,
        ticketExpiresAt: new Date(expires * 1000).toISOString(),
        heartbeatSeconds: deps.heartbeatSeconds,
        maxBufferedBytes: deps.maxBufferedBytes,
        rooms: ['network', `user:${principal.actor.id}`],
        fallback: '/api/transparency/events',
      };
    },
  });

  localRoute(app, {
    method: 'GET',
    url: '/stats',
    operationId: 'getRealtimeStats',
    summary: 'Real-time statistics of this gateway replica',
    description:
      'Open sockets, rooms with members, memberships (in total and by room kind), messages sent to sockets per ' +
      'second (average of the last 10 s) and since start, and sockets dropped for falling behind. Each replica ' +
      'answers for itself (`replicaId`).',
    tags: TAGS,
    policy: { permission: 'transparency:read', object: { rule: 'none', why: 'counts only' } },
    reply: RealtimeStats,
    replyExample: {
      replicaId: 'gw_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      connections: 2,
      rooms: 3,
      subscriptions: 4,
      messagesPerSecond: 12.5,
      messagesSent: 1200,
      droppedClients: 0,
      byRoomKind: { network: 1, user: 2, plant: 1, farm: 0 },
    },
    handler: async () => hub.stats(),
  });
};

function originOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

function messageError(m: unknown): string {
  if (m === undefined) return 'Frames must be JSON text';
  const errors = [...clientMessage.Errors(m)].slice(0, 1);
  const first = errors[0];
  return first ? `Invalid message at ${first.path || '/'}: ${first.message}` : 'Invalid message';
}
