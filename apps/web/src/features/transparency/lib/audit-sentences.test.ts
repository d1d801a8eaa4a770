import { readFileSync } from 'node:fs';
import {
  CROPS,
  declaredEvents,
  ENVIRONMENT_CATEGORIES,
  FARM_CROPS,
  HARVEST_QUALITY_GRADES,
  ORG_ROLES,
  OrganizationUpdate,
  ROLES,
  WEBHOOK_DISABLED_REASONS,
} from '@rootline/contracts';
import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { auditSentence, SENTENCE_KEYS } from './audit-sentences';

/** Every public kind and its domain event, as docs/event-kinds.md lists them. */
const DOCUMENTED = [
  ...readFileSync(new URL('../../../../../../docs/event-kinds.md', import.meta.url), 'utf8').matchAll(
    /^\| \[`([a-z.]+)`\]\(#[a-z]+\)\s*\| `(evt\.[a-z.-]+)`/gm,
  ),
].map((m) => ({ kind: m[1] as string, subject: m[2] as string }));

const names: Record<string, string> = { usr_alice: 'Alice', usr_bob: 'Bob' };
const nameOf = (id: string) => names[id];
const raw = /evt\.|usr_|[a-z]+\.[a-z]+\.[a-z]+|undefined|null|\[object/;

describe('audit entries in people’s words', () => {
  it('reads the documented kinds', () => {
    expect(DOCUMENTED.length).toBeGreaterThanOrEqual(14);
  });

  it.each(DOCUMENTED)('$kind has its own sentence, with no kind, subject or id in it', ({ kind, subject }) => {
    expect(SENTENCE_KEYS).toContain(kind);
    const data = { sellerId: 'usr_alice', buyerId: 'usr_bob', growerId: 'usr_alice', handlerId: 'usr_bob' };
    const sentence = auditSentence({ kind, subject, actor: 'usr_alice', data }, nameOf);
    expect(sentence).not.toMatch(raw);
    expect(sentence).not.toBe(kind);
    // The public form (no people in it) still reads as a sentence.
    expect(auditSentence({ kind, data: {} })).not.toMatch(raw);
  });

  it.each(declaredEvents().filter((e) => !e.kind))('$subject has its own sentence', ({ subject }) => {
    expect(SENTENCE_KEYS).toContain(subject);
    expect(auditSentence({ source: 'event', kind: subject, subject, actor: 'usr_bob', data: {} }, nameOf)).not.toMatch(
      raw,
    );
  });

  it('names people and records', () => {
    expect(
      auditSentence(
        {
          kind: 'plant.registered',
          data: {
            plantId: 'plt_1',
            commonName: 'Tomato',
            scientificName: 'Solanum lycopersicum',
            ownerId: 'usr_alice',
          },
        },
        nameOf,
      ),
    ).toBe('Alice registered Tomato (Solanum lycopersicum)');
    expect(auditSentence({ kind: 'evt.chain.block.mined', data: { index: 12, hash: 'ab', txCount: 1 } })).toBe(
      'Block 12 mined with 1 transaction',
    );
    expect(auditSentence({ kind: 'evt.chain.block.mined', data: { index: 13, hash: 'ab', txCount: 2 } })).toBe(
      'Block 13 mined with 2 transactions',
    );
    expect(
      auditSentence({ kind: 'listing.published', data: { sellerId: 'usr_bob', title: 'Basil seedlings' } }, nameOf),
    ).toBe('Bob listed “Basil seedlings”');
    expect(auditSentence({ kind: 'listing.published', data: { sellerId: 'usr_zed', title: 'Basil' } }, nameOf)).toBe(
      'A seller listed “Basil”',
    );
  });

  it('names the person and the organization of an act for an organization, and tells transfers', () => {
    const names2 = { ...names, org_river: 'Riverside Seed Library' };
    const of = (id: string) => names2[id as keyof typeof names2];
    expect(
      auditSentence(
        {
          kind: 'plant.registered',
          actor: 'usr_alice',
          actingFor: { id: 'org_river', name: 'Riverside Seed Library' },
          data: { plantId: 'plt_1', commonName: 'Tomato', ownerId: 'org_river' },
        },
        of,
      ),
    ).toBe('Riverside Seed Library registered Tomato (Alice acting for “Riverside Seed Library”)');
    const transfer = { subjectName: 'Tomato', fromName: 'Alice', toName: 'Riverside Seed Library' };
    expect(
      auditSentence(
        {
          kind: 'evt.plants.transfer.accepted',
          actor: 'usr_bob',
          actingFor: { id: 'org_river', name: 'Riverside Seed Library' },
          data: transfer,
        },
        of,
      ),
    ).toBe('Riverside Seed Library accepted Tomato from Alice (Bob acting for “Riverside Seed Library”)');
    expect(auditSentence({ kind: 'evt.plants.transfer.proposed', data: transfer })).toBe(
      'Alice offered Tomato to Riverside Seed Library',
    );
  });

  it('says what an administrator did and why, and words an unknown subject', () => {
    expect(
      auditSentence(
        { source: 'admin', kind: 'admin.certificate-revoked', actor: 'usr_alice', data: {}, reason: 'Lost key' },
        nameOf,
      ),
    ).toBe('Alice recorded: certificate revoked (“Lost key”)');
    expect(auditSentence({ source: 'event', kind: 'evt.garden.bed.dug', data: {} })).toBe('Bed dug');
  });
});

describe('audit entries in the reader’s language', () => {
  afterAll(async () => {
    await i18next.changeLanguage('en');
  });

  it('reads in Dutch and French, with the language’s plurals and numbers', async () => {
    for (const lng of ['nl', 'fr']) {
      const { default: catalog } = await import(`../../../locales/${lng}/transparency.json`);
      i18next.addResourceBundle(lng, 'transparency', catalog, true, true);
    }
    const mined = (txCount: number) => auditSentence({ kind: 'evt.chain.block.mined', data: { index: 7, txCount } });
    await i18next.changeLanguage('nl');
    expect([mined(1), mined(3)]).toEqual(['Blok 7 gedolven met 1 transactie', 'Blok 7 gedolven met 3 transacties']);
    expect(
      auditSentence({ kind: 'plant.registered', data: { commonName: 'Tomaat', ownerId: 'usr_alice' } }, nameOf),
    ).toBe('Alice registreerde Tomaat');
    expect(auditSentence({ kind: 'listing.published', data: { title: 'Basilicum' } })).toBe(
      'Een verkoper bood ‘Basilicum’ aan',
    );
    await i18next.changeLanguage('fr');
    expect([mined(1), mined(2), mined(1_000_000)]).toEqual([
      'Bloc 7 miné avec 1 transaction',
      'Bloc 7 miné avec 2 transactions',
      'Bloc 7 miné avec 1\u202f000\u202f000 de transactions',
    ]);
    expect(auditSentence({ kind: 'supply.committed', data: { quantityKg: 2.5, crop: 'tomates' } })).toBe(
      'Un cultivateur s’est engagé sur 2,5 kg de tomates',
    );
  });
});

describe('codes an audit sentence quotes, in the reader’s language', () => {
  /** Every code the contracts define that a sentence may quote, by the group of words that says it. */
  const CODES: Record<string, readonly string[]> = {
    roles: [...ROLES, ...ORG_ROLES],
    crops: [...new Set([...CROPS, ...FARM_CROPS])],
    grades: HARVEST_QUALITY_GRADES,
    categories: ENVIRONMENT_CATEGORIES,
    organizationFields: Object.keys(OrganizationUpdate.properties),
    webhookReasons: WEBHOOK_DISABLED_REASONS,
  };

  afterAll(async () => {
    await i18next.changeLanguage('en');
  });

  it.each(['en', 'nl', 'de', 'fr', 'es'])('%s has words for every code', async (lng) => {
    const { default: catalog } = await import(`../../../locales/${lng}/transparency.json`);
    const words = catalog.sentences as Record<string, Record<string, string>>;
    const missing = Object.entries(CODES).flatMap(([group, codes]) =>
      codes.filter((code) => !words[group]?.[code]?.trim()).map((code) => `${group}.${code}`),
    );
    expect(missing).toEqual([]);
  });

  it('says roles, crops, grades, categories, fields and reasons in German, never as codes', async () => {
    const { default: catalog } = await import('../../../locales/de/transparency.json');
    i18next.addResourceBundle('de', 'transparency', catalog, true, true);
    await i18next.changeLanguage('de');
    const say = (kind: string, data: Record<string, unknown>) => auditSentence({ kind, data }, nameOf);
    expect(
      say('evt.gateway.user.role-changed', {
        userId: 'usr_bob',
        changedBy: 'usr_alice',
        role: 'FARM_MANAGER',
        previousRole: 'USER',
      }),
    ).toBe('Alice hat Bob zu Farmleitung gemacht (vorher Nutzer)');
    expect(say('evt.organization.member.added', { userId: 'usr_bob', organizationName: 'Zaad', role: 'viewer' })).toBe(
      'Bob ist „Zaad“ beigetreten als Betrachter',
    );
    expect(say('farm.harvest', { yieldKg: 3, crop: 'basil', qualityGrade: 'grade-a' })).toBe(
      '3 kg Basilikum geerntet, Klasse A',
    );
    expect(say('evt.transparency.webhook.disabled', { ownerId: 'usr_alice', reason: 'gone' })).toBe(
      'Ein Webhook von Alice wurde abgeschaltet (der Empfänger ist nicht mehr da)',
    );
    for (const [group, codes] of Object.entries(CODES)) {
      for (const code of codes) {
        const data = {
          roles: { userId: 'usr_bob', role: code },
          crops: { crop: code, quantityKg: 1 },
          grades: { yieldKg: 1, crop: 'kale', qualityGrade: code },
          categories: { categories: [code] },
          organizationFields: { changedBy: 'usr_alice', fields: [code] },
          webhookReasons: { ownerId: 'usr_alice', reason: code },
        }[group] as Record<string, unknown>;
        const kind = {
          roles: 'evt.gateway.user.role-changed',
          crops: 'supply.committed',
          grades: 'farm.harvest',
          categories: 'evt.environment.record.added',
          organizationFields: 'evt.organization.profile.updated',
          webhookReasons: 'evt.transparency.webhook.disabled',
        }[group] as string;
        const sentence = auditSentence({ kind, actor: 'usr_alice', data }, nameOf);
        expect(sentence, `${group} ${code}`).toContain(
          (catalog.sentences as unknown as Record<string, Record<string, string>>)[group]?.[code],
        );
      }
    }
  });
});
