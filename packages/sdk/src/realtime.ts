import { createParser, type EventSourceMessage } from 'eventsource-parser';

// Live updates (docs/realtime.md): one WebSocket joined to rooms, reconnecting on its own, and the server-sent
// stream of public events as the fallback where a socket cannot be kept open.

/** An event pushed into a room: a public event (see the event catalogue) or `notification` in `user:<id>`. */
export interface RealtimeEvent {
  room: string;
  /** Its kind: `plant.registered`, `marketplace.offer.made`… or `notification`. */
  event: string;
  id: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/**
 * Where the connection is: `connecting`; `live` (the socket is open); `fallback` (the socket failed, public events
 * arrive by the server-sent stream, notifications do not); `offline` (waiting to try again); `signed-out` (the
 * server closed the socket because the session ended: sign in again, then `restart()`); `closed` (by `close()`).
 */
export type RealtimeState = 'connecting' | 'live' | 'fallback' | 'offline' | 'signed-out' | 'closed';

/** The part of the WebSocket API used here (browsers' WebSocket, or the `ws` package in Node.js). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number): void;
}
export type WebSocketFactory = new (url: string) => WebSocketLike;

export interface RealtimeOptions {
  /** Where the API is, e.g. `https://rootline.example` (same as the client's). */
  baseUrl: string;
  /**
   * A ticket for the socket (`POST /api/realtime/connect`), asked before each connection: for bearer tokens. Without
   * it the socket is opened without one and the session cookie authenticates it (pages of the same origin).
   */
  ticket?: () => Promise<string>;
  /** The WebSocket constructor (default: globalThis.WebSocket). */
  WebSocket?: WebSocketFactory;
  /** For the server-sent stream (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** Sent with the server-sent stream's request: `'include'` in cookie mode. */
  credentials?: RequestInit['credentials'];
  /** Headers of the server-sent stream's request (`Authorization` in bearer mode). */
  headers?: Record<string, string>;
  /** Socket attempts that fail in a row before the server-sent stream takes over (default 2). */
  fallbackAfter?: number;
  /** Waits between attempts: doubling from `initialMs` up to `maxMs`, with jitter (default 500 ms to 15 s). */
  backoff?: { initialMs: number; maxMs: number };
}

export interface RoomHandlers {
  /** A room the server refused (FORBIDDEN, NOT_FOUND…): it is not joined again until subscribed anew. */
  onError?: (error: { code: string; message: string }) => void;
}

export interface Realtime {
  /** Listens to a room (`network`, `user:<id>`, `plant:<id>`, `farm:<id>`); returns the function that stops. */
  subscribe(room: string, listener: (event: RealtimeEvent) => void, handlers?: RoomHandlers): () => void;
  readonly state: RealtimeState;
  /** The account of the socket, from its `welcome`. */
  readonly userId: string | undefined;
  onState(listener: (state: RealtimeState) => void): () => void;
  /** Connects again now (after `signed-out`, once signed in again, or to end a wait). */
  restart(): void;
  close(): void;
}

/** A socket closed by the server because its session ended (sign-out, password reset, role change). */
export const SESSION_ENDED = 4001;

interface Room {
  listeners: Set<(event: RealtimeEvent) => void>;
  handlers: Set<RoomHandlers>;
}

/**
 * The rooms a public event belongs to, as the server decides them: `network`; the plant and farm it names; every
 * account it names in a property ending in `Id`. Used for events read from the server-sent stream.
 */
export function roomsOfPublicEvent(data: Record<string, unknown>): string[] {
  const rooms = new Set<string>(['network']);
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !key.endsWith('Id')) continue;
    if (key === 'plantId' && value.startsWith('plt_')) rooms.add(`plant:${value}`);
    else if (key === 'farmId' && value.startsWith('frm_')) rooms.add(`farm:${value}`);
    else if (value.startsWith('usr_')) rooms.add(`user:${value}`);
  }
  return [...rooms];
}

/** The wait before attempt `n` (from 1): doubling, capped, with up to a quarter of jitter. */
export function backoffDelay(n: number, initialMs: number, maxMs: number, random = Math.random): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, n - 1));
  return Math.round(base * (0.75 + random() * 0.25));
}

/**
 * Opens the real-time connection: one WebSocket for every room subscribed, which reconnects with backoff and joins
 * its rooms again. After `fallbackAfter` failed attempts in a row the server-sent stream of public events takes
 * over (notifications then arrive only by reading `GET /api/notifications`) while the socket keeps being retried.
 */
export function connectRealtime(options: RealtimeOptions): Realtime {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const WS = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketFactory }).WebSocket;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const fallbackAfter = options.fallbackAfter ?? 2;
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 500, maxMs: 15_000 };
  const socketUrl = `${baseUrl.replace(/^http/, 'ws')}/api/realtime/ws`;

  const rooms = new Map<string, Room>();
  const stateListeners = new Set<(state: RealtimeState) => void>();
  let state: RealtimeState = 'connecting';
  let userId: string | undefined;
  let socket: WebSocketLike | null = null;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stream: AbortController | null = null;
  let lastEventId: string | undefined;
  let ref = 0;

  const setState = (next: RealtimeState) => {
    if (next === state) return;
    state = next;
    for (const l of stateListeners) l(next);
  };

  const deliver = (room: string, event: RealtimeEvent) => {
    for (const l of rooms.get(room)?.listeners ?? []) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own: the others still receive the event.
      }
    }
  };

  const send = (message: Record<string, unknown>) => {
    if (socket?.readyState === 1) socket.send(JSON.stringify(message));
  };
  const join = (room: string) => send({ type: 'subscribe', room, ref: String(++ref) });

  const onMessage = (raw: unknown) => {
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(String(raw)) as Record<string, unknown>;
    } catch {
      return;
    }
    if (m.type === 'welcome') {
      userId = typeof m.userId === 'string' ? m.userId : undefined;
      // A working socket: the fallback stream is no longer needed.
      stopStream();
      failures = 0;
      setState('live');
      for (const room of rooms.keys()) join(room);
    } else if (m.type === 'event' && typeof m.room === 'string') {
      deliver(m.room, {
        room: m.room,
        event: String(m.event),
        id: String(m.id),
        occurredAt: String(m.occurredAt),
        data: (m.data ?? {}) as Record<string, unknown>,
      });
    } else if (m.type === 'error' && typeof m.room === 'string') {
      const error = m.error as { code: string; message: string };
      for (const h of rooms.get(m.room)?.handlers ?? []) h.onError?.(error);
    }
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(open, backoffDelay(failures, initialMs, maxMs));
  };

  // A function, not an inline test: the state changes while a ticket is awaited.
  const stopped = () => state === 'closed' || state === 'signed-out';

  async function open() {
    if (stopped() || socket) return;
    if (!WS) {
      startStream();
      return;
    }
    let url = socketUrl;
    try {
      if (options.ticket) url = `${socketUrl}?ticket=${encodeURIComponent(await options.ticket())}`;
    } catch {
      failed();
      return;
    }
    if (stopped()) return;
    const ws = new WS(url);
    socket = ws;
    ws.onmessage = (ev) => onMessage(ev.data);
    ws.onerror = () => {};
    ws.onclose = (ev) => {
      if (socket !== ws) return;
      socket = null;
      if (state === 'closed') return;
      if (ev.code === SESSION_ENDED) {
        stopStream();
        setState('signed-out');
        return;
      }
      failed();
    };
  }

  function failed() {
    failures++;
    if (failures >= fallbackAfter) startStream();
    else setState('offline');
    schedule();
  }

  function stopStream() {
    stream?.abort();
    stream = null;
  }

  function startStream() {
    if (stream || state === 'live' || stopped()) return;
    const controller = new AbortController();
    stream = controller;
    setState('offline');
    void readStream(controller).finally(() => {
      if (stream !== controller) return;
      stream = null;
      // The stream ended (or never answered) while the socket still fails: read it again after a pause, from the
      // last event.
      if (state === 'fallback' || state === 'offline') setTimeout(startStream, Math.max(initialMs, 1000));
    });
  }

  async function readStream(controller: AbortController) {
    const parser = createParser({
      onEvent(message: EventSourceMessage) {
        if (message.id) lastEventId = message.id;
        let body: { id?: string; kind?: string; occurredAt?: string; data?: Record<string, unknown> };
        try {
          body = JSON.parse(message.data) as typeof body;
        } catch {
          return;
        }
        const data = body.data ?? {};
        for (const room of roomsOfPublicEvent(data)) {
          if (!rooms.has(room)) continue;
          deliver(room, {
            room,
            event: body.kind ?? message.event ?? 'message',
            id: String(body.id),
            occurredAt: String(body.occurredAt),
            data,
          });
        }
      },
    });
    try {
      const res = await doFetch(`${baseUrl}/api/transparency/events`, {
        headers: {
          accept: 'text/event-stream',
          ...options.headers,
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        ...(options.credentials ? { credentials: options.credentials } : {}),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) return;
      // Said only once the stream answers: a stream that cannot connect is not live either.
      if (stream === controller) setState('fallback');
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(value);
      }
    } catch {
      // Aborted, or the network failed: the caller decides whether to read again.
    }
  }

  void open();

  return {
    subscribe(name, listener, handlers) {
      let room = rooms.get(name);
      if (!room) {
        room = { listeners: new Set(), handlers: new Set() };
        rooms.set(name, room);
        join(name);
      }
      room.listeners.add(listener);
      if (handlers) room.handlers.add(handlers);
      return () => {
        const r = rooms.get(name);
        if (!r) return;
        r.listeners.delete(listener);
        if (handlers) r.handlers.delete(handlers);
        if (r.listeners.size === 0) {
          rooms.delete(name);
          // The own room stays joined by the server whatever the client says.
          if (name !== `user:${userId}`) send({ type: 'unsubscribe', room: name, ref: String(++ref) });
        }
      };
    },
    get state() {
      return state;
    },
    get userId() {
      return userId;
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    restart() {
      if (state === 'closed') return;
      clearTimeout(timer);
      failures = 0;
      if (socket) return;
      setState('connecting');
      void open();
    },
    close() {
      clearTimeout(timer);
      setState('closed');
      stopStream();
      const ws = socket;
      socket = null;
      ws?.close(1000);
    },
  };
}
