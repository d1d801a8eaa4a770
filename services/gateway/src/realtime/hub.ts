import type { Bus, Subscription } from '@rootline/bus';
import { newId, type PublicEvent, type RealtimeStats, realtimePublished, sessionsChanged } from '@rootline/contracts';
import type { Clock, Logger } from '@rootline/host';
import type { WebSocket } from 'ws';
import type { EventHub } from '../transparency/event-stream.js';
import { ROOM_KINDS, roomKind, roomsOfEvent } from './rooms.js';

/** One open socket: who holds it, the session of the credential that opened it, and the rooms it joined. */
export interface Connection {
  readonly id: string;
  readonly userId: string;
  /** The session whose token, cookie or ticket opened the socket; null for an API token. */
  readonly sessionId: string | null;
  readonly socket: WebSocket;
  readonly rooms: Set<string>;
  /** Answered the last ping. */
  alive: boolean;
}

export interface RealtimeHubOptions {
  bus: Bus;
  log: Logger;
  clock: Clock;
  /** The reader of public events (one per gateway), followed while sockets are open. */
  events: EventHub;
  heartbeatMs: number;
  maxBufferedBytes: number;
  replicaId: string;
}

/**
 * Close code of a socket whose credential ended (sign-out, or every session of the account ended by a password
 * reset or a role change): 4001, in the range RFC 6455 leaves to applications, mirroring HTTP 401.
 */
export const CLOSE_SESSION_ENDED = 4001;

/** Which sockets a session change ends: those of one session, or every socket of one account. */
export function endedBy(change: unknown, c: { userId: string; sessionId: string | null }): boolean {
  const ch = change as { sessionId?: unknown; userId?: unknown } | null;
  if (typeof ch?.sessionId === 'string') return c.sessionId === ch.sessionId;
  if (typeof ch?.userId === 'string') return c.userId === ch.userId;
  return false;
}

/**
 * How long a signed-out session is remembered: a socket authenticated just before the sign-out but registered
 * after its announcement is closed too (the upgrade takes a few round trips).
 */
const ENDED_MEMORY_MS = 60_000;

/** Seconds of history behind `messagesPerSecond`. */
const RATE_WINDOW = 10;

/** A server frame for a room: `event` is a public event kind or `notification`. */
export function eventFrame(room: string, event: string, id: string, occurredAt: string, data: unknown): string {
  return JSON.stringify({ type: 'event', room, event, id, occurredAt, data });
}

/**
 * The gateway's rooms. Each replica holds its own sockets; what a room receives reaches every replica through
 * NATS (the public-event signal of the transparency service, and `sig.realtime.message.published`), and each
 * replica hands it to its own members. A frame is serialised once per room; a socket holding more than
 * `maxBufferedBytes` unsent is dropped at once, so a slow client costs others nothing.
 */
export function createRealtimeHub(o: RealtimeHubOptions) {
  const connections = new Set<Connection>();
  const rooms = new Map<string, Set<Connection>>();
  let sent = 0;
  let dropped = 0;
  let samples: { at: number; sent: number }[] = [];
  let timers: NodeJS.Timeout[] = [];
  let listening: Subscription | undefined;
  let sessionsListening: Subscription | undefined;
  /** Sessions ended lately, with when; see ENDED_MEMORY_MS. */
  const endedSessions = new Map<string, number>();
  let unfollow: (() => void) | undefined;
  let following: Promise<void> | undefined;

  const send = (c: Connection, frame: string): void => {
    if (c.socket.readyState !== c.socket.OPEN) return;
    if (c.socket.bufferedAmount > o.maxBufferedBytes) {
      drop(c);
      return;
    }
    c.socket.send(frame);
    sent++;
  };

  /** Closes a socket that fell behind: terminated, not closed politely (its buffer is full anyway). */
  const drop = (c: Connection): void => {
    dropped++;
    o.log.info({ connectionId: c.id, userId: c.userId, buffered: c.socket.bufferedAmount }, 'slow socket dropped');
    remove(c);
    c.socket.terminate();
  };

  const deliver = (room: string, frame: string): void => {
    const members = rooms.get(room);
    if (!members) return;
    for (const c of members) send(c, frame);
  };

  const onPublicEvent = (e: PublicEvent): void => {
    for (const room of roomsOfEvent(e)) {
      if (rooms.has(room)) deliver(room, eventFrame(room, e.kind, e.id, e.occurredAt, e.data));
    }
  };

  const onPublished = (payload: unknown): void => {
    const m = payload as { room?: unknown; event?: unknown; data?: unknown; sentAt?: unknown };
    if (typeof m.room !== 'string' || typeof m.event !== 'string' || !rooms.has(m.room)) return;
    const data = (m.data ?? {}) as { id?: unknown; createdAt?: unknown };
    const id = typeof data.id === 'string' ? data.id : newId('rtm', o.clock.now().getTime());
    const at = typeof data.createdAt === 'string' ? data.createdAt : String(m.sentAt ?? o.clock.now().toISOString());
    deliver(m.room, eventFrame(m.room, m.event, id, at, m.data));
  };

  /**
   * A session ended somewhere (any replica announces it to all): its sockets here are closed with 4001. A change
   * naming an account closes all of the account's sockets, API-token ones too (their role may have changed).
   */
  const onSessionsChanged = (change: unknown): void => {
    const sessionId = (change as { sessionId?: unknown } | null)?.sessionId;
    if (typeof sessionId === 'string') endedSessions.set(sessionId, o.clock.now().getTime());
    const reason = typeof sessionId === 'string' ? 'session ended' : 'sessions of the account ended';
    for (const c of [...connections]) {
      if (!endedBy(change, c)) continue;
      o.log.info({ connectionId: c.id, userId: c.userId }, `socket closed: ${reason}`);
      remove(c);
      c.socket.close(CLOSE_SESSION_ENDED, reason);
    }
  };

  const heartbeat = (): void => {
    for (const c of connections) {
      if (!c.alive) {
        o.log.info({ connectionId: c.id }, 'socket missed its pong; closed');
        remove(c);
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      c.socket.ping();
    }
  };

  const sample = (): void => {
    const forgetBefore = o.clock.now().getTime() - ENDED_MEMORY_MS;
    for (const [id, at] of endedSessions) if (at < forgetBefore) endedSessions.delete(id);
    samples.push({ at: o.clock.now().getTime(), sent });
    if (samples.length > RATE_WINDOW + 1) samples = samples.slice(-RATE_WINDOW - 1);
  };

  /** Public events are read from the history only while this replica has sockets. */
  const follow = (): void => {
    if (following || unfollow) return;
    following = o.events
      .follow(onPublicEvent)
      .then((stop) => {
        unfollow = stop;
        if (connections.size === 0) unfollowNow();
      })
      .catch((err: unknown) => o.log.warn({ err }, 'real-time: public events not followed'))
      .finally(() => {
        following = undefined;
      });
  };
  const unfollowNow = (): void => {
    unfollow?.();
    unfollow = undefined;
  };

  function remove(c: Connection): void {
    if (!connections.delete(c)) return;
    for (const room of c.rooms) leave(c, room);
    if (connections.size === 0) unfollowNow();
  }

  function leave(c: Connection, room: string): void {
    c.rooms.delete(room);
    const members = rooms.get(room);
    if (!members) return;
    members.delete(c);
    if (members.size === 0) rooms.delete(room);
  }

  return {
    async start(): Promise<void> {
      listening = await o.bus.listen(realtimePublished.subject, onPublished);
      sessionsListening = await o.bus.listen(sessionsChanged.subject, onSessionsChanged);
      timers = [setInterval(heartbeat, o.heartbeatMs), setInterval(sample, 1000)];
      sample();
    },
    async stop(): Promise<void> {
      for (const t of timers) clearInterval(t);
      timers = [];
      for (const c of [...connections]) {
        remove(c);
        c.socket.close(1001, 'server shutting down');
      }
      await following;
      unfollowNow();
      await listening?.stop();
      listening = undefined;
      await sessionsListening?.stop();
      sessionsListening = undefined;
    },
    /** Registers an open socket of `userId`, opened by a credential of `sessionId` (null: an API token). */
    add(socket: WebSocket, userId: string, sessionId: string | null): Connection {
      const c: Connection = {
        id: newId('wsc', o.clock.now().getTime()),
        userId,
        sessionId,
        socket,
        rooms: new Set(),
        alive: true,
      };
      connections.add(c);
      socket.on('pong', () => {
        c.alive = true;
      });
      socket.on('close', () => remove(c));
      socket.on('error', () => remove(c));
      if (sessionId !== null && endedSessions.has(sessionId)) {
        // Its session ended while the upgrade was under way.
        remove(c);
        socket.close(CLOSE_SESSION_ENDED, 'session ended');
        return c;
      }
      follow();
      return c;
    },
    join(c: Connection, room: string): void {
      if (!connections.has(c)) return;
      c.rooms.add(room);
      let members = rooms.get(room);
      if (!members) {
        members = new Set();
        rooms.set(room, members);
      }
      members.add(c);
    },
    leave,
    /** Resolves once public events are followed (a socket told it is open then misses none recorded after). */
    async following(): Promise<void> {
      await following;
    },
    /** Sends one frame to one socket (answers to its own requests), under the same limit as room frames. */
    send,
    stats(): RealtimeStats {
      const byRoomKind = Object.fromEntries(ROOM_KINDS.map((k) => [k, 0])) as RealtimeStats['byRoomKind'];
      let subscriptions = 0;
      for (const [room, members] of rooms) {
        byRoomKind[roomKind(room)] += members.size;
        subscriptions += members.size;
      }
      const first = samples[0];
      const now = o.clock.now().getTime();
      const seconds = first ? (now - first.at) / 1000 : 0;
      return {
        replicaId: o.replicaId,
        connections: connections.size,
        rooms: rooms.size,
        subscriptions,
        messagesPerSecond: first && seconds > 0 ? Math.round(((sent - first.sent) / seconds) * 10) / 10 : 0,
        messagesSent: sent,
        droppedClients: dropped,
        byRoomKind,
      };
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
