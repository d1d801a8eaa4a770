import { describe, expect, it } from 'vitest';
import { entityOf, usersConcerned, webhooksOfEvent } from './event-facts.js';

describe('event facts', () => {
  it('names the record and the users an event concerns', () => {
    const payload = { plantId: 'plt_1', ownerId: 'usr_2', buyerId: 'usr_3', note: 'x' };
    expect(entityOf(payload)).toBe('plt_1');
    expect(usersConcerned('usr_1', payload)).toEqual(['usr_1', 'usr_2', 'usr_3']);
  });

  it('picks the webhooks of an event: subscribed to its kind and owned by a user it concerns', () => {
    const own = { scope: 'own' as const, area: null };
    const hooks = [
      { id: 'whk_a', ownerId: 'usr_1', events: ['plant.registered'], ...own },
      { id: 'whk_b', ownerId: 'usr_1', events: ['transport.completed'], ...own },
      { id: 'whk_c', ownerId: 'usr_9', events: ['plant.registered'], ...own },
    ];
    expect(webhooksOfEvent(hooks, 'plant.registered', ['usr_1', 'usr_2']).map((h) => h.id)).toEqual(['whk_a']);
    expect(webhooksOfEvent(hooks, 'plant.registered', [])).toEqual([]);
  });

  it('gives a public-scope webhook every event of its kinds, whoever it concerns, once', () => {
    const hooks = [
      { id: 'whk_feed', ownerId: 'usr_9', events: ['plant.registered'], scope: 'public' as const, area: null },
      { id: 'whk_mine', ownerId: 'usr_9', events: ['plant.registered'], scope: 'own' as const, area: null },
    ];
    expect(webhooksOfEvent(hooks, 'plant.registered', ['usr_1']).map((h) => h.id)).toEqual(['whk_feed']);
    expect(webhooksOfEvent(hooks, 'plant.registered', []).map((h) => h.id)).toEqual(['whk_feed']);
    // Its owner's own event: the public webhook once, and the own-scope one.
    expect(webhooksOfEvent(hooks, 'plant.registered', ['usr_9']).map((h) => h.id)).toEqual(['whk_feed', 'whk_mine']);
    expect(webhooksOfEvent(hooks, 'listing.published', ['usr_9'])).toEqual([]);
  });

  it('narrows a webhook with an area to events whose place is in it; an event without a place never matches', () => {
    const amsterdam = { bbox: [4.73, 52.27, 5.07, 52.43] };
    const hooks = [
      { id: 'whk_box', ownerId: 'usr_9', events: ['plant.registered'], scope: 'public' as const, area: amsterdam },
      {
        id: 'whk_nl',
        ownerId: 'usr_9',
        events: ['plant.registered'],
        scope: 'public' as const,
        area: { country: 'NL' },
      },
      { id: 'whk_ownbox', ownerId: 'usr_1', events: ['plant.registered'], scope: 'own' as const, area: amsterdam },
    ];
    const ids = (place: Parameters<typeof webhooksOfEvent>[3], users: string[] = ['usr_1']) =>
      webhooksOfEvent(hooks, 'plant.registered', users, place).map((h) => h.id);
    expect(ids({ latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' })).toEqual([
      'whk_box',
      'whk_nl',
      'whk_ownbox',
    ]);
    expect(ids({ latitude: 52.37, longitude: 4.9, city: 'Amsterdam', country: 'NL' }, ['usr_2'])).toEqual([
      'whk_box',
      'whk_nl',
    ]);
    expect(ids({ latitude: 48.86, longitude: 2.35, city: 'Paris', country: 'FR' })).toEqual([]);
    expect(ids({ latitude: 51.92, longitude: 4.48, country: 'NL' })).toEqual(['whk_nl']);
    expect(ids(null)).toEqual([]);
  });
});
