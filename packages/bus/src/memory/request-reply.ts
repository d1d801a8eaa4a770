import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { copyHeaders, decodeJson, encodeJson } from '../codec.js';
import { type BusLog, INTERNAL_REPLY, NAME, REQUEST_TIMEOUT_MS, unavailable } from '../defaults.js';
import { subjectMatches } from '../subject.js';
import type {
  DiscoveredService,
  Endpoint,
  Headers,
  RequestOptions,
  ServedService,
  ServiceDescriptor,
} from '../types.js';

/** One service instance registered by a connection. */
export interface Instance {
  readonly id: string;
  readonly service: ServiceDescriptor;
  readonly endpoints: Endpoint[];
  /** Set once stop() begins: the instance takes no new requests. */
  stopping: boolean;
  readonly inFlight: Set<Promise<unknown>>;
}

/** The served instances of every connection, and whose turn it is in each queue group. */
export interface ServiceTable {
  readonly instances: Set<Instance>;
  /** Requests so far by `<service name> <subject>`, to rotate among a group's instances. */
  readonly roundRobin: Map<string, number>;
}

/** Requests and replies between the connections of an in-process broker, and discovery of who serves. */
export interface RequestReply {
  /** Registers an instance of a service; `owned` holds its handle until it stops. */
  serve(service: ServiceDescriptor, endpoints: Endpoint[], owned: Set<ServedService>): ServedService;
  /** Sends a request and resolves with the first reply's bytes. */
  request(subject: string, payload: unknown, opts: RequestOptions): Promise<Uint8Array>;
  discover(): Promise<DiscoveredService[]>;
}

const newId = () => randomBytes(11).toString('hex');

/** One instance per queue group (service name) whose endpoint matches, rotating within each group. */
export function responders(table: ServiceTable, subject: string): Array<{ instance: Instance; endpoint: Endpoint }> {
  const groups = new Map<string, Array<{ instance: Instance; endpoint: Endpoint }>>();
  for (const instance of table.instances) {
    if (instance.stopping) continue;
    const endpoint = instance.endpoints.find((e) => subjectMatches(e.subject, subject));
    if (!endpoint) continue;
    const group = groups.get(instance.service.name) ?? [];
    group.push({ instance, endpoint });
    groups.set(instance.service.name, group);
  }
  const picked: Array<{ instance: Instance; endpoint: Endpoint }> = [];
  for (const [name, group] of groups) {
    const key = `${name} ${subject}`;
    const turn = table.roundRobin.get(key) ?? 0;
    table.roundRobin.set(key, turn + 1);
    picked.push(group[turn % group.length]!);
  }
  return picked;
}

/** Creates the request-reply side of an in-process broker, with NATS's queue groups and errors. */
export function createRequestReply(log: BusLog): RequestReply {
  const table: ServiceTable = { instances: new Set(), roundRobin: new Map() };

  /** Runs one request on an instance and resolves with the reply bytes; tracked so stop() can wait for it. */
  function dispatch(instance: Instance, endpoint: Endpoint, body: Uint8Array, headers: Uint8Array) {
    const run = (async () => {
      await nextTurn();
      try {
        const reply = await endpoint.handler(decodeJson(body), decodeJson(headers) as Headers);
        return encodeJson(reply);
      } catch (err) {
        log.error({ err }, `bus: ${instance.service.name} failed on ${endpoint.subject}`);
        return encodeJson(INTERNAL_REPLY);
      }
    })();
    const tracked = run.finally(() => instance.inFlight.delete(tracked));
    instance.inFlight.add(tracked);
    return run;
  }

  return {
    serve(service, endpoints, owned) {
      if (!NAME.test(service.name)) throw new Error(`invalid service name "${service.name}"`);
      if (!/\d+\.\d+\.\d+/.test(service.version)) throw new Error(`'${service.version}' is not a semver value`);
      const instance: Instance = {
        id: newId(),
        service: { ...service },
        endpoints: [...endpoints],
        stopping: false,
        inFlight: new Set(),
      };
      table.instances.add(instance);
      let stopped: Promise<void> | undefined;
      const handle: ServedService = {
        id: instance.id,
        stop() {
          stopped ??= (async () => {
            instance.stopping = true;
            table.instances.delete(instance);
            while (instance.inFlight.size > 0) await Promise.allSettled([...instance.inFlight]);
            owned.delete(handle);
          })();
          return stopped;
        },
      };
      owned.add(handle);
      return handle;
    },

    async request(subject, payload, opts) {
      const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
      const body = encodeJson(payload);
      const headers = encodeJson(copyHeaders(opts.headers));
      const targets = responders(table, subject);
      // NATS answers "no responders" after a round trip, not synchronously.
      await nextTurn();
      if (targets.length === 0) throw unavailable(subject, 'no-responders');
      return new Promise((resolve, reject) => {
        let settled = false;
        const timer = setTimeout(() => {
          settled = true;
          reject(unavailable(subject, 'timeout', timeoutMs));
        }, timeoutMs);
        for (const { instance, endpoint } of targets) {
          void dispatch(instance, endpoint, body, headers).then((reply) => {
            // The first answer wins, as with a NATS request; later ones go nowhere.
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve(reply);
          });
        }
      });
    },

    // Every instance answers at once here, so there is no timeout to wait out.
    async discover() {
      await nextTurn();
      return [...table.instances].map((i) => ({ name: i.service.name, id: i.id, version: i.service.version }));
    },
  };
}
