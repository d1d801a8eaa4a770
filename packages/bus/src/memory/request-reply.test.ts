import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../types.js';
import { type Instance, responders, type ServiceTable } from './request-reply.js';

function instance(id: string, name: string, subjects: string[]): Instance {
  const endpoints: Endpoint[] = subjects.map((subject) => ({ subject, handler: async () => ({ ok: true }) }));
  return { id, service: { name, version: '1.0.0' }, endpoints, stopping: false, inFlight: new Set() };
}

describe('responders', () => {
  it('picks one instance per service, in turn within each service', () => {
    const table: ServiceTable = {
      instances: new Set([
        instance('p1', 'plants', ['plants.plant.get']),
        instance('p2', 'plants', ['plants.>']),
        instance('a1', 'audit', ['plants.plant.get']),
        instance('f1', 'farm', ['farm.>']),
      ]),
      roundRobin: new Map(),
    };
    const picks = [1, 2, 3].map(() => responders(table, 'plants.plant.get').map((r) => r.instance.id));
    expect(picks).toEqual([
      ['p1', 'a1'],
      ['p2', 'a1'],
      ['p1', 'a1'],
    ]);
  });

  it('skips an instance that is stopping', () => {
    const stopping = { ...instance('p1', 'plants', ['plants.>']), stopping: true };
    const table: ServiceTable = {
      instances: new Set([stopping, instance('p2', 'plants', ['plants.>'])]),
      roundRobin: new Map(),
    };
    expect(responders(table, 'plants.plant.get').map((r) => r.instance.id)).toEqual(['p2']);
    expect(responders(table, 'farm.tower.get')).toEqual([]);
  });
});
