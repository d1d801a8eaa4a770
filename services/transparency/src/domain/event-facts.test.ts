import { describe, expect, it } from 'vitest';
import { entityOf, usersConcerned, webhooksOfEvent } from './event-facts.js';

describe('event facts', () => {
  it('names the record and the users an event concerns', () => {
    const payload = { plantId: 'plt_1', ownerId: 'usr_2', buyerId: 'usr_3', note: 'x' };
    expect(entityOf(payload)).toBe('plt_1');
    expect(usersConcerned('usr_1', payload)).toEqual(['usr_1', 'usr_2', 'usr_3']);
  });

  it('picks the webhooks of an event: subscribed to its kind and owned by a user it concerns', () => {
    const hooks = [
      { id: 'whk_a', ownerId: 'usr_1', events: ['plant.registered'] },
      { id: 'whk_b', ownerId: 'usr_1', events: ['transport.completed'] },
      { id: 'whk_c', ownerId: 'usr_9', events: ['plant.registered'] },
    ];
    expect(webhooksOfEvent(hooks, 'plant.registered', ['usr_1', 'usr_2']).map((h) => h.id)).toEqual(['whk_a']);
    expect(webhooksOfEvent(hooks, 'plant.registered', [])).toEqual([]);
  });
});
