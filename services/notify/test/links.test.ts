import { APP_PAGES, pageOf, SERVER_PAGES } from '@rootline/contracts/app-links';
import { describe, expect, it } from 'vitest';
import { emailContent } from '../src/domain/email.js';
import { render, TEMPLATE_TYPE, type Template, type TemplateName } from '../src/domain/messages.js';

const BASE = 'https://rootline.example';

/** One message of every template, with the parameters its events give. */
const EVERY: Template[] = [
  { name: 'welcome', params: {} },
  { name: 'plant-registered', params: { plantId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD', commonName: 'Mint' } },
  {
    name: 'demand-match',
    params: { matchId: 'mtc_1', crop: 'tomato', quantityKg: 3, distanceKm: 4.2, side: 'grower' },
  },
  {
    name: 'demand-match',
    params: { matchId: 'mtc_1', crop: 'tomato', quantityKg: 3, distanceKm: 4.2, side: 'consumer' },
  },
  {
    name: 'offer-made',
    params: { offerId: 'ofr_1', listingId: 'lst_01HZX3K6Q2W8N4B7T5R9V0C1MD', quantity: 2, price: 450, currency: 'EUR' },
  },
  {
    name: 'offer-accepted',
    params: { offerId: 'ofr_1', listingId: 'lst_01HZX3K6Q2W8N4B7T5R9V0C1MD', quantity: 2, price: 450, currency: 'EUR' },
  },
  { name: 'verify-email', params: { linkId: 'atk_1' } },
  { name: 'reset-password', params: { linkId: 'atk_2' } },
  { name: 'password-changed', params: {} },
  {
    name: 'transport-arriving',
    params: { transportEventId: 'tev_1', kind: 'handoff', plantId: 'plt_1', seedLotId: null, distanceKm: 12 },
  },
  {
    name: 'transport-arriving',
    params: { transportEventId: 'tev_2', kind: 'seed_exchange', plantId: null, seedLotId: 'sdl_1', distanceKm: 3 },
  },
  {
    name: 'farm-alert',
    params: { farmId: 'frm_1', farmName: 'North', batchId: 'bat_1', deviationCount: 2, metrics: ['ph'] },
  },
  { name: 'harvest-ready', params: { farmId: 'frm_1', farmName: 'North', batchId: 'bat_1', crop: 'basil' } },
  { name: 'weekly-digest', params: { weekStart: '2026-11-23', lines: ['2 plants registered'] } },
  {
    name: 'webhook-disabled',
    params: { webhookId: 'whk_1', url: 'https://example.org/hook', reason: 'gone', failingSince: null },
  },
  {
    name: 'organization-invitation',
    params: { invitationId: 'oin_1', organizationName: 'Riverside', role: 'member', invitedByName: 'Ada' },
  },
  ...(
    [
      'invitation-sent',
      'member-added',
      'role-changed',
      'member-removed',
      'member-left',
      'invitation-declined',
      'invitation-revoked',
      'dissolved',
    ] as const
  ).flatMap((change) =>
    [false, true].map(
      (you): Template => ({
        name: 'organization-change',
        params: {
          organizationId: 'org_01HZX3K6Q2W8N4B7T5R9V0C1MD',
          organizationName: 'Riverside',
          change,
          memberName: 'Grace',
          you,
          role: 'manager',
          previousRole: 'member',
        },
      }),
    ),
  ),
  ...(['proposed', 'accepted', 'declined', 'cancelled'] as const).map(
    (change): Template => ({
      name: 'transfer',
      params: {
        transferId: 'trf_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        change,
        subjectId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        subjectName: 'Tomato',
        fromName: 'Alice',
        toName: 'Riverside',
      },
    }),
  ),
  {
    name: 'seed-loan',
    params: {
      loanId: 'sln_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      lotName: 'Tomato ‘Brandywine’',
      lenderName: 'Riverside Seed Library',
      amount: 30,
      unit: 'seeds',
      dueSeason: '2027-autumn',
    },
  },
];

/** The one-time links the gateway mints for verification and reset (identity/accounts.ts's LINK_PATH). */
const ACTION: Partial<Record<TemplateName, string>> = {
  'verify-email': `${BASE}${APP_PAGES.verifyEmail}?token=abc`,
  'reset-password': `${BASE}${APP_PAGES.resetPassword}?token=abc`,
  // The gateway's organizations module mints it (organizations.ts, issueLink).
  'organization-invitation': `${BASE}${APP_PAGES.organizationInvitation}?token=abc`,
};

/** Every address of our own in a text, as a path. */
function ownPaths(text: string): string[] {
  return [...text.matchAll(/https:\/\/rootline\.example(\/[^\s"<>)]*)/g)].map((m) => m[1]!);
}

describe('links of every notification open a page of the web app', () => {
  it('covers every template', () => {
    expect(new Set(EVERY.map((t) => t.name))).toEqual(new Set(Object.keys(TEMPLATE_TYPE)));
  });

  for (const template of EVERY) {
    const variant =
      'side' in template.params
        ? ` (${template.params.side})`
        : 'change' in template.params
          ? ` (${template.params.change}${'you' in template.params && template.params.you ? ', you' : ''})`
          : '';
    it(`${template.name}${variant}: the in-app and push link and every email link name a route`, () => {
      const message = render(template, ACTION[template.name]);
      // In-app items and push messages carry `link` (push as PUBLIC_URL + link).
      if (message.link !== null) {
        expect(message.link.startsWith('/')).toBe(true);
        expect(pageOf(message.link), message.link).not.toBeNull();
      }
      // The email: its body's links, the link to the page, and the unsubscribe page.
      const email = emailContent(message, {
        name: 'Ada',
        publicUrl: BASE,
        unsubscribeUrl: `${BASE}${APP_PAGES.unsubscribe}?token=t`,
      });
      const paths = ownPaths(email.text);
      expect(paths.length).toBeGreaterThan(0);
      for (const path of [...paths, ...ownPaths(email.html)]) expect(pageOf(path), path).not.toBeNull();
    });
  }

  it('the links that were "Page not found" now name routes of the app', () => {
    expect(render({ name: 'welcome', params: {} }).link).toBe('/plants/new');
    expect(render(EVERY[4]!).link).toBe('/market/listings/lst_01HZX3K6Q2W8N4B7T5R9V0C1MD');
    expect(render({ name: 'weekly-digest', params: { weekStart: 'x', lines: [] } }).link).toBe('/inbox');
    expect(render(EVERY[10]!).link).toBe('/api/transport/trace/tev_2');
    expect(pageOf('/marketplace/listings/lst_1')).toBeNull();
    expect(pageOf('/plants')).toBeNull();
    expect(Object.values(SERVER_PAGES)).toContain('/api/transport/trace/:id');
  });

  it('an invitation to an organization opens the app’s invitation page; its changes open the members page', () => {
    const invitation = render(
      {
        name: 'organization-invitation',
        params: { invitationId: 'oin_1', organizationName: 'R', role: 'owner', invitedByName: 'Ada' },
      },
      `${BASE}/organizations/join?token=abc`,
    );
    expect(invitation.body).toContain(`${BASE}/organizations/join?token=abc`);
    expect(invitation.body).toContain('as an owner');
    expect(pageOf('/organizations/join?token=abc')).toBe('organizationInvitation');
    const added = EVERY.find((t) => t.name === 'organization-change' && t.params.change === 'member-added');
    expect(render(added as Template).link).toBe('/organizations/org_01HZX3K6Q2W8N4B7T5R9V0C1MD/members');
    expect(pageOf('/organizations/mine')).toBe('myOrganizations');
  });
});
