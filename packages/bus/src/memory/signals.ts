import { decodeJson, encodeJson } from '../codec.js';
import type { BusLog } from '../defaults.js';
import { subjectMatches } from '../subject.js';
import type { Subscription } from '../types.js';

/** Broadcast signals between the connections of an in-process broker: no queue group, no log, no reply. */
export interface Signals {
  /** Hands the payload to every listener of a matching subject; `from` names the sending connection in logs. */
  broadcast(subject: string, payload: unknown, from: string): void;
  /** Adds a listener; `owned` holds its subscription until it stops. */
  listen(subject: string, handler: (payload: unknown) => void, owned: Set<Subscription>): Subscription;
}

/** Creates the broadcast side of an in-process broker. */
export function createSignals(log: BusLog): Signals {
  /** Listeners of broadcast signals, by connection, so closing a connection removes its own. */
  const listeners = new Set<{ subject: string; handler: (payload: unknown) => void }>();

  return {
    broadcast(subject, payload, from) {
      const body = encodeJson(payload);
      for (const l of [...listeners]) {
        if (!subjectMatches(l.subject, subject)) continue;
        // Delivered on a later turn, each listener with its own decoded copy, as from a NATS subscription.
        setImmediate(() => {
          if (!listeners.has(l)) return;
          try {
            l.handler(decodeJson(body));
          } catch (err) {
            log.error({ err }, `bus ${from}: listener of ${subject} failed`);
          }
        });
      }
    },

    listen(subject, handler, owned) {
      const listener = { subject, handler };
      listeners.add(listener);
      const subscription: Subscription = {
        lag: async () => 0,
        async stop() {
          listeners.delete(listener);
          owned.delete(subscription);
        },
      };
      owned.add(subscription);
      return subscription;
    },
  };
}
