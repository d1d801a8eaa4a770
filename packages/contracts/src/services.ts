import { type Static, Type } from '@sinclair/typebox';
import { defineSubject, type SubjectDef } from './define.js';

/** Every back-end service; the gateway's readiness waits for all of them. */
export const SERVICE_NAMES = [
  'chain-miner',
  'plants',
  'transport',
  'demand',
  'farm',
  'environment',
  'transparency',
  'media',
  'notify',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const ServiceStatus = Type.Object({
  service: Type.String(),
  instance: Type.String(),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('none')]),
  outboxBacklog: Type.Integer({ minimum: 0, description: 'Events committed but not yet published' }),
  uptimeSeconds: Type.Number(),
  ledgerIntents: Type.Optional(
    Type.Object(
      {
        pending: Type.Integer({ minimum: 0, description: 'Ledger writes not finished yet' }),
        failed: Type.Integer({
          minimum: 0,
          description: 'Ledger writes given up after repeated store failures (their transaction has no record)',
        }),
      },
      { description: 'A service that records writes on the ledger: its unfinished and given-up writes' },
    ),
  ),
});
export type ServiceStatus = Static<typeof ServiceStatus>;

const statusSubjects = new Map<ServiceName, SubjectDef<ReturnType<typeof Type.Object>, typeof ServiceStatus>>();

/** `<service>.ops.status`: every service answers it (database check, outbox backlog). */
export function statusSubject(service: ServiceName) {
  let def = statusSubjects.get(service);
  if (!def) {
    def = defineSubject({
      subject: `${service}.ops.status`,
      request: Type.Object({}),
      reply: ServiceStatus,
      summary: `Health of the ${service} service`,
    });
    statusSubjects.set(service, def);
  }
  return def;
}
