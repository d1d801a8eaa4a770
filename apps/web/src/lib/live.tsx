import type { Realtime, RealtimeEvent, RealtimeState } from '@rootline/sdk';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { SESSION, useSession } from '../features/auth/api/session';

// Live updates for every page: one WebSocket per signed-in tab (the session cookie opens it), rooms joined while a
// page listens, the server-sent stream of public events when the socket cannot be kept (docs/realtime.md).

interface Live {
  realtime: Realtime | null;
  state: RealtimeState | 'off';
}

const LiveContext = createContext<Live>({ realtime: null, state: 'off' });

/** Opens the connection while someone is signed in; when the server ends the session, the app asks who is signed in. */
export function LiveProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const client = useQueryClient();
  const userId = session.data?.id;
  const [live, setLive] = useState<Live>({ realtime: null, state: 'off' });

  useEffect(() => {
    if (!userId) return;
    let realtime: Realtime | null = null;
    let off = () => {};
    let ended = false;
    // The realtime client's code comes once someone is signed in, not with every visitor's first paint.
    void import('./realtime-client').then(({ connectRealtime }) => {
      if (ended) return;
      const opened = connectRealtime({ baseUrl: window.location.origin, credentials: 'include' });
      realtime = opened;
      setLive({ realtime: opened, state: opened.state });
      off = opened.onState((state) => {
        setLive({ realtime: opened, state });
        // Signed out elsewhere, a password reset or a role change: every open page follows the session as it is
        // now, and a session that lives on (a new role) gets its socket back.
        if (state === 'signed-out') {
          void client.invalidateQueries().then(() => {
            if (client.getQueryData(SESSION)) opened.restart();
          });
        }
      });
    });
    return () => {
      ended = true;
      off();
      realtime?.close();
      setLive({ realtime: null, state: 'off' });
    };
  }, [userId, client]);

  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}

/** Where the live connection is (`off` when nobody is signed in). */
export function useLiveState(): RealtimeState | 'off' {
  return useContext(LiveContext).state;
}

/** Calls `listener` with each event of `room` while the component is shown (no room: nothing). */
export function useLiveRoom(room: string | null | undefined, listener: (event: RealtimeEvent) => void): void {
  const { realtime } = useContext(LiveContext);
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    if (!realtime || !room) return;
    return realtime.subscribe(room, (event) => latest.current(event));
  }, [realtime, room]);
}

/**
 * Refetches the queries under `keys` when an event of `room` arrives (only the events `accept` takes, when given):
 * the page then shows what the API answers now, with nothing to merge by hand.
 */
export function useLiveRefresh(
  room: string | null | undefined,
  keys: readonly QueryKey[],
  accept?: (event: RealtimeEvent) => boolean,
): void {
  const client = useQueryClient();
  useLiveRoom(room, (event) => {
    if (accept && !accept(event)) return;
    for (const queryKey of keys) void client.invalidateQueries({ queryKey });
  });
}
