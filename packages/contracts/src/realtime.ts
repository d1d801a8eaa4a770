import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { defineSignal, defineSubject } from './define.js';

/**
 * A room name: `network` (every signed-in user), `user:<userId>` (oneself), `plant:<plantId>` (a plant the caller
 * may read), `farm:<farmId>` (a farm the caller owns; ADMIN any).
 */
export const RealtimeRoom = Type.String({
  pattern: '^(network|user:usr_[A-Za-z0-9_-]{1,60}|plant:plt_[A-Za-z0-9]{10,40}|farm:frm_[A-Za-z0-9_-]{1,60})$',
  description: '`network`, `user:<userId>`, `plant:<plantId>` or `farm:<farmId>`',
  examples: ['plant:plt_01HZX3Q4R5S6T7V8W9XYZABCDE'],
});
export type RealtimeRoom = Static<typeof RealtimeRoom>;

/** What a client sends over the socket (JSON text frames). */
export const RealtimeClientMessage = Type.Union(
  [
    Type.Object(
      {
        type: Type.Union([Type.Literal('subscribe'), Type.Literal('unsubscribe')]),
        room: RealtimeRoom,
        ref: Type.Optional(Type.String({ maxLength: 64, description: 'Echoed in the answer' })),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: Type.Literal('ping'),
        ref: Type.Optional(Type.String({ maxLength: 64 })),
      },
      { additionalProperties: false },
    ),
  ],
  { examples: [{ type: 'subscribe', room: 'network', ref: '1' }] },
);
export type RealtimeClientMessage = Static<typeof RealtimeClientMessage>;

/**
 * A message for the members of one room, broadcast to every gateway replica, which hands it to its own sockets
 * in that room. notify sends in-app notifications this way (`user:<id>`, event `notification`).
 */
export const realtimePublished = defineSignal({
  subject: 'sig.realtime.message.published',
  payload: Type.Object({
    room: Type.String(),
    event: Type.String({ description: '`notification`, or a public event kind' }),
    data: Type.Unknown(),
    sentAt: Timestamp,
  }),
});

/** GET /api/realtime/stats: this replica's figures. */
export const RealtimeStats = Type.Object({
  replicaId: Type.String({ description: 'The gateway replica that answered' }),
  connections: Type.Integer({ minimum: 0 }),
  rooms: Type.Integer({ minimum: 0, description: 'Rooms with at least one member here' }),
  subscriptions: Type.Integer({ minimum: 0, description: 'Memberships, summed over rooms' }),
  messagesPerSecond: Type.Number({ minimum: 0, description: 'Messages sent to sockets, average of the last 10 s' }),
  messagesSent: Type.Integer({ minimum: 0, description: 'Since start' }),
  droppedClients: Type.Integer({ minimum: 0, description: 'Sockets closed for falling behind, since start' }),
  byRoomKind: Type.Object({
    network: Type.Integer({ minimum: 0 }),
    user: Type.Integer({ minimum: 0 }),
    plant: Type.Integer({ minimum: 0 }),
    farm: Type.Integer({ minimum: 0 }),
  }),
});
export type RealtimeStats = Static<typeof RealtimeStats>;

/** POST /api/realtime/connect: how to open the socket, with a ticket for clients that cannot send headers. */
export const RealtimeConnection = Type.Object({
  url: Type.String({ description: 'The WebSocket address, with the ticket in its query' }),
  ticket: Type.String({ description: 'Authenticates one socket opened within `ticketExpiresAt`' }),
  ticketExpiresAt: Timestamp,
  heartbeatSeconds: Type.Integer({ description: 'The server pings this often; answer pings (browsers do)' }),
  maxBufferedBytes: Type.Integer({ description: 'A socket with more unsent bytes than this is dropped' }),
  rooms: Type.Array(Type.String(), { description: 'Rooms the caller may join without asking a service' }),
  fallback: Type.String({ description: 'The server-sent event stream, for clients without WebSocket' }),
});
export type RealtimeConnection = Static<typeof RealtimeConnection>;

/** GET /api/privacy/status: the anonymity network route. */
export const PrivacyStatus = Type.Object({
  socks: Type.Object({
    configured: Type.Boolean(),
    proxy: Type.Union([Type.String(), Type.Null()], { description: 'host:port of the proxy (never credentials)' }),
    reachable: Type.Boolean({ description: 'A TCP connection to the proxy opened' }),
    handshake: Type.Boolean({ description: 'A SOCKS5 CONNECT through it to the check target succeeded' }),
    checkTarget: Type.Union([Type.String(), Type.Null()]),
    latencyMs: Type.Union([Type.Number(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
  }),
  outgoingHttpProxied: Type.Boolean({ description: 'Webhooks and Web Push leave through the proxy' }),
  hiddenService: Type.Object({
    configured: Type.Boolean(),
    hostname: Type.Union([Type.String(), Type.Null()], { description: 'The .onion address, when configured' }),
  }),
  checkedAt: Timestamp,
});
export type PrivacyStatus = Static<typeof PrivacyStatus>;

/** One account as notify keeps it: where to write. */
export const NotifyRecipientEntry = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  locale: Type.Union([Type.String(), Type.Null()], { description: 'The language to write in; null for English' }),
  updatedAt: Timestamp,
});

/**
 * The gateway's accounts in id order, a page at a time (`after` the last id seen), so notify can learn the
 * recipients that existed before it ran.
 */
export const notifyRecipientList = defineSubject({
  subject: 'gateway.recipient.list',
  request: Type.Object(
    {
      after: Type.Optional(
        Type.String({ pattern: '^usr_[A-Za-z0-9_-]{1,116}$', description: 'The last account id of the page before' }),
      ),
      limit: Type.Integer({ minimum: 1, maximum: 1000 }),
    },
    { additionalProperties: false },
  ),
  reply: Type.Object({ items: Type.Array(NotifyRecipientEntry) }),
  summary: 'Accounts and their email addresses, in id order (for notify)',
});
