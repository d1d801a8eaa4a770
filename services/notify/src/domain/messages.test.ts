import { describe, expect, it } from 'vitest';
import { emailContent } from './email.js';
import { render } from './messages.js';

describe('messages', () => {
  it('renders a plant registration with a link to the plant', () => {
    expect(render({ name: 'plant-registered', params: { plantId: 'plt_1', commonName: 'Mint' } })).toEqual({
      title: 'Mint is registered',
      body: 'Mint is recorded on the ledger as plt_1.',
      link: '/plants/plt_1',
    });
  });

  it('speaks to each side of a demand match', () => {
    const params = { matchId: 'mtc_1', crop: 'tomato', quantityKg: 3, distanceKm: 4.24 };
    expect(render({ name: 'demand-match', params: { ...params, side: 'grower' } }).body).toBe(
      'Your supply matches 3 kg of tomato, within 5 km.',
    );
    expect(render({ name: 'demand-match', params: { ...params, side: 'consumer' } }).title).toBe(
      'tomato grown near you',
    );
  });

  it('writes an organization invitation in the language asked (the inviter’s), its role too', () => {
    const invitation = {
      name: 'organization-invitation' as const,
      params: { invitationId: 'oin_1', organizationName: 'Zaadbibliotheek', role: 'member', invitedByName: 'Ada' },
    };
    const link = 'https://rootline.example/organizations/join?token=t';
    const dutch = render(invitation, link, 'nl');
    expect(dutch.title).toBe('Ada nodigt je uit voor Zaadbibliotheek');
    expect(dutch.body).toContain('met de rol: lid.');
    expect(dutch.body).toContain(link);
    expect(render(invitation, link, null).body).toContain('on Rootline as a member.');
    expect(() => render(invitation, undefined, 'de')).toThrow();
  });

  it('tells a borrower what was lent, by whom and until when, in their language, with the loans page', () => {
    const loan = {
      name: 'seed-loan' as const,
      params: {
        loanId: 'sln_1',
        lotName: 'Tomato ‘Brandywine’',
        lenderName: 'Zaadbibliotheek Utrecht',
        amount: 30,
        unit: 'seeds',
        dueSeason: '2027-autumn',
      },
    };
    expect(render(loan)).toEqual({
      title: 'Tomato ‘Brandywine’ lent to you',
      body:
        'Zaadbibliotheek Utrecht lent you 30 seeds of Tomato ‘Brandywine’. Bring back seed saved from what you grow ' +
        'by the end of autumn 2027: return it on your loans page.',
      link: '/loans',
    });
    const dutch = render(loan, undefined, 'nl');
    expect(dutch.body).toContain('30 zaden van Tomato ‘Brandywine’');
    expect(dutch.body).toContain('eind herfst 2027');
  });

  it('needs the one-time link for a reset email', () => {
    expect(() => render({ name: 'reset-password', params: { linkId: 'atk_1' } })).toThrow(/one-time link/);
    expect(render({ name: 'reset-password', params: { linkId: 'atk_1' } }, 'https://x/reset?t=1').body).toContain(
      'https://x/reset?t=1',
    );
  });

  it('builds text and HTML with the unsubscribe link, escaping the text', () => {
    const email = emailContent(
      { title: 'Hi', body: 'Tom & <Jerry> at https://example.org/a?b=1', link: '/plants/plt_1' },
      { name: 'Ada', publicUrl: 'https://rootline.example', unsubscribeUrl: 'https://rootline.example/u?t=x' },
    );
    expect(email.subject).toBe('Hi');
    expect(email.text).toContain('Hello Ada,');
    expect(email.text).toContain('https://rootline.example/plants/plt_1');
    expect(email.text).toContain('To stop these emails, open https://rootline.example/u?t=x');
    expect(email.html).toContain('Tom &amp; &lt;Jerry&gt;');
    expect(email.html).toContain('<a href="https://example.org/a?b=1">');
    expect(email.html).toContain('<a href="https://rootline.example/u?t=x">');
  });
});

describe('transport and farm messages', () => {
  it('tells the recipient what is coming, linking the plant or else the public trace page of the event', () => {
    const base = { transportEventId: 'tev_1', kind: 'seed_sharing', distanceKm: 12.4 };
    expect(render({ name: 'transport-arriving', params: { ...base, plantId: 'plt_1', seedLotId: null } })).toEqual({
      title: 'Plant plt_1 is coming to you',
      body: 'Plant plt_1 was handed on to you (seed sharing, 12 km).',
      link: '/plants/plt_1',
    });
    const lot = render({ name: 'transport-arriving', params: { ...base, plantId: null, seedLotId: 'lot_a' } });
    expect(lot.title).toBe('Seed lot lot_a is coming to you');
    expect(lot.link).toBe('/api/transport/trace/tev_1');
  });

  it('names the farm, the count and the metrics of an alert, in the singular for one reading', () => {
    const params = { farmId: 'frm_1', farmName: 'North', batchId: 'bat_1', deviationCount: 1, metrics: ['co2Ppm'] };
    expect(render({ name: 'farm-alert', params }).body).toBe(
      '1 reading of batch bat_1 fell outside the targets (co2Ppm).',
    );
    expect(
      render({ name: 'harvest-ready', params: { farmId: 'frm_1', farmName: 'North', batchId: 'bat_1', crop: 'kale' } }),
    ).toMatchObject({ title: 'kale is ready to harvest', link: '/vertical-farm/batch/bat_1' });
  });

  it('tells why a webhook was disabled and how to turn it back on', () => {
    const base = { webhookId: 'whk_1', url: 'https://r.example/h', failingSince: '2026-11-20T08:00:00.000Z' };
    const failing = render({ name: 'webhook-disabled', params: { ...base, reason: 'failing' } });
    expect(failing.body).toContain('every delivery to it has failed since 2026-11-20T08:00:00.000Z');
    expect(failing.body).toContain('PATCH /api/transparency/webhooks/whk_1');
    const gone = render({ name: 'webhook-disabled', params: { ...base, reason: 'gone', failingSince: null } });
    expect(gone.body).toContain('its receiver answered 410 Gone');
  });
});
