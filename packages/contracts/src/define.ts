import { type OptionalKind, type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';

const SUBJECT = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;
const EVENT_SUBJECT = /^evt\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

/** A request subject: the one place its name, request schema and reply schema are written. */
export interface SubjectDef<Req extends TSchema = TSchema, Rep extends TSchema = TSchema> {
  /** `<service>.<resource>.<verb>` */
  readonly subject: string;
  readonly request: Req;
  readonly reply: Rep;
  /** One line for logs and documentation. */
  readonly summary: string;
}

export type RequestOf<D extends SubjectDef> = Static<D['request']>;

declare const defaulted: unique symbol;

/** Type-only mark (no runtime value) of a request property whose absent value the contract's `default` fills in. */
export interface DefaultedMark {
  readonly [defaulted]: true;
}

/**
 * The type of a `Defaulted` property: optional for TypeBox (`Static` makes it `?:`), with the value type of `T`.
 * An interface rather than an intersection, so declaration files can name it.
 */
export interface TDefaulted<T extends TSchema> extends TSchema, DefaultedMark {
  readonly [OptionalKind]: 'Optional';
  static: Static<T>;
}

/**
 * An optional request property with its default, written once here: callers may omit it, and the gateway's
 * validator and the host (before a handler runs) fill it in, so the handler's input always has it (`InputOf`).
 */
export function Defaulted<T extends TSchema>(schema: T): TDefaulted<T> {
  if (schema.default === undefined) throw new Error('Defaulted: the schema needs a `default`');
  return Type.Optional(schema) as unknown as TDefaulted<T>;
}

type DefaultedKeys<S> =
  S extends TObject<infer P> ? { [K in keyof P]: P[K] extends DefaultedMark ? K : never }[keyof P] : never;

/** A subject's request as its handler receives it: the properties with a contract default are always present. */
export type InputOf<D extends SubjectDef> = RequestOf<D> & {
  [K in DefaultedKeys<D['request']> & keyof RequestOf<D>]-?: Exclude<RequestOf<D>[K], undefined>;
};
export type ReplyOf<D extends SubjectDef> = Static<D['reply']>;

/** Declares a request subject; the gateway and the serving service import the same object. */
export function defineSubject<Req extends TSchema, Rep extends TSchema>(def: {
  subject: string;
  request: Req;
  reply: Rep;
  summary: string;
}): SubjectDef<Req, Rep> {
  if (!SUBJECT.test(def.subject)) {
    throw new Error(`subject "${def.subject}" is not <service>.<resource>.<verb>`);
  }
  return Object.freeze({ ...def });
}

/** A domain event: subject on the durable stream, payload schema, and its public kind if it has one. */
export interface EventDef<P extends TSchema = TSchema> {
  /** `evt.<service>.<entity>.<past-tense>` */
  readonly subject: string;
  readonly payload: P;
  /** Public event kind (webhooks, SSE), e.g. `plant.registered`; absent for internal events. */
  readonly kind?: string;
  /**
   * The fields of the payload the public form keeps (event history, stream, webhooks); absent: all of them. The
   * audit log (ADMIN only) and the bus carry the whole payload.
   */
  readonly publicFields?: readonly string[];
}

export type PayloadOf<E extends EventDef> = Static<E['payload']>;

// Every event declared so far, by subject: consumers of all events (the audit log) and the catalogue of public
// kinds read it, so a kind declared in a new contracts file is picked up without a list to keep.
const declared = new Map<string, EventDef>();

/** Declares a domain event. */
export function defineEvent<P extends TSchema>(def: {
  subject: string;
  payload: P;
  kind?: string;
  publicFields?: readonly string[];
}): EventDef<P> {
  if (!EVENT_SUBJECT.test(def.subject)) {
    throw new Error(`event "${def.subject}" is not evt.<service>.<entity>.<past-tense>`);
  }
  const known = Object.keys((def.payload.properties ?? {}) as object);
  const unknown = (def.publicFields ?? []).filter((f) => !known.includes(f));
  if (unknown.length > 0) throw new Error(`event "${def.subject}": public fields not in its payload: ${unknown}`);
  const event = Object.freeze({ ...def });
  declared.set(def.subject, event);
  return event;
}

/** The schema of an event's public form: its payload with only the public fields. */
export function publicPayloadOf(def: EventDef): TSchema {
  if (!def.publicFields) return def.payload;
  const props = (def.payload.properties ?? {}) as Record<string, TSchema>;
  const required = ((def.payload.required ?? []) as string[]).filter((f) => def.publicFields?.includes(f));
  return {
    ...def.payload,
    properties: Object.fromEntries(Object.entries(props).filter(([k]) => def.publicFields?.includes(k))),
    required,
  } as TSchema;
}

/** An event's payload in its public form: only its public fields (all of them when the event names none). */
export function publicFormOf(def: EventDef | undefined, payload: unknown): unknown {
  if (!def?.publicFields || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return Object.fromEntries(Object.entries(payload).filter(([k]) => def.publicFields?.includes(k)));
}

/** Every domain event declared in the contracts, in declaration order. */
export function declaredEvents(): readonly EventDef[] {
  return [...declared.values()];
}

const SIGNAL_SUBJECT = /^sig\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

/**
 * A broadcast signal: reaches every instance listening at that moment, is not stored and not acknowledged.
 * For news every replica must act on at once, such as dropping a cached entry.
 */
export interface SignalDef<P extends TSchema = TSchema> {
  /** `sig.<service>.<entity>.<past-tense>` */
  readonly subject: string;
  readonly payload: P;
}

/** Declares a broadcast signal. */
export function defineSignal<P extends TSchema>(def: { subject: string; payload: P }): SignalDef<P> {
  if (!SIGNAL_SUBJECT.test(def.subject)) {
    throw new Error(`signal "${def.subject}" is not sig.<service>.<entity>.<past-tense>`);
  }
  return Object.freeze({ ...def });
}

const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;
const named = new Map<string, TSchema>();

/**
 * Names a schema for the API document: it gets the name as its `title`, and the document lists it once among its
 * components and refers to it wherever it appears. Validation ignores titles. A schema derived from it (a
 * `Type.Partial`, `Type.Pick`…) inherits the title but not the name: the document shows it in place.
 */
export function Named<T extends TSchema>(name: string, schema: T): T {
  if (!COMPONENT_NAME.test(name)) throw new Error(`schema name "${name}" is not PascalCase letters and digits`);
  if (named.has(name)) throw new Error(`schema name "${name}" is given twice`);
  const titled = { ...schema, title: name };
  named.set(name, titled);
  return titled;
}

/** Every schema named so far, by name (see `Named`). */
export function namedSchemas(): ReadonlyMap<string, TSchema> {
  return named;
}
