import { currentLanguage } from '../../../i18n';
import { type Group, SENTENCES, type SentenceKey } from '../strings';

/** What a sentence is made from: an audit entry, whole (ADMIN) or in its public form. */
export interface AuditFacts {
  source?: 'event' | 'admin';
  /** The public kind (`plant.registered`) or, for an event without one, its subject. */
  kind: string;
  /** `evt.<service>.<entity>.<past-tense>` or `admin.<action>`, when known. */
  subject?: string;
  /** The account that caused it, when known. */
  actor?: string | null;
  data: unknown;
  reason?: string | null;
  /** The organization the actor acted for, when it acted for one (the sentence names both). */
  actingFor?: { id: string; name: string } | undefined;
}

/** An account's display name by id, when it is known. */
export type NameOf = (id: string) => string | undefined;

type Data = Record<string, unknown>;
const text = (d: Data, key: string) => (typeof d[key] === 'string' ? (d[key] as string) : undefined);
const num = (d: Data, key: string) => (typeof d[key] === 'number' ? (d[key] as number) : undefined);
const say = SENTENCES.say;
/** A fallback word: a person's part (`A grower`) or a thing (`a crop`). */
const who0 = (key: string) => SENTENCES.word('who', key) ?? key;
const thing = (key: string, values?: Record<string, unknown>) => SENTENCES.word('things', key, values) ?? key;
const kg = (n: number | undefined) =>
  n === undefined
    ? thing('some')
    : thing('kg', { amount: n.toLocaleString(currentLanguage(), { maximumFractionDigits: 1 }) });
const words = (s: string) => s.replace(/[-_.]/g, ' ');
/** A code the API sends (a role, a crop, a grade…) in the reader's words; one this app does not know, in words. */
const coded = (group: Group, code: string) => SENTENCES.word(group, code) ?? words(code);
const codedList = (group: Group, codes: unknown[]) =>
  codes
    .filter((c): c is string => typeof c === 'string')
    .map((c) => coded(group, c))
    .join(', ');
const quoted = (s: string | undefined) => (s ? thing('quoted', { text: s }) : thing('listing'));
const org = (d: Data) => {
  const name = text(d, 'organizationName');
  return name ? thing('quoted', { text: name }) : thing('organization');
};
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** An optional part of a sentence: its words when `value` is given, else nothing. */
const part = (key: SentenceKey, values: Record<string, unknown> | false | undefined) =>
  values ? say(key, values) : '';

/** The people a sentence names (by a payload key, or `null` for the actor): their name, else their part. */
function people(d: Data, actor: string | null | undefined, nameOf: NameOf) {
  return (key: string | null, fallback: string): string => {
    const id = key === null ? actor : text(d, key);
    return (id ? nameOf(id) : undefined) ?? who0(fallback);
  };
}

type Sentence = (d: Data, who: ReturnType<typeof people>, facts: AuditFacts) => string;

const role = (code: string | undefined) => (code ? coded('roles', code) : undefined);
const roleWas = (d: Data) => part('was', text(d, 'previousRole') ? { role: role(text(d, 'previousRole')) } : false);
const asRole = (d: Data) => part('as', text(d, 'role') ? { role: role(text(d, 'role')) } : false);
const cropOf = (d: Data) => (text(d, 'crop') ? coded('crops', text(d, 'crop') as string) : undefined);
const crop = (d: Data, fallback = 'crop') => cropOf(d) ?? thing(fallback);
const nameOr = (d: Data, who: ReturnType<typeof people>) => text(d, 'name') ?? who('userId', 'someone');

/** The parts of a transfer's sentence: its record and both sides, by the names recorded with it. */
const transferParts = (d: Data) => ({
  name: text(d, 'subjectName') ?? thing('plant'),
  from: text(d, 'fromName') ?? who0('someone'),
  to: text(d, 'toName') ?? who0('someoneLower'),
});

/** One sentence per public event kind (docs/event-kinds.md) and per internal event subject. */
const SENTENCES_BY_KIND: Readonly<Record<string, Sentence>> = {
  'plant.registered': (d, who) => {
    const name = text(d, 'commonName') ?? thing('plant');
    const species = text(d, 'scientificName');
    const owner = text(d, 'ownerId') ? who('ownerId', 'grower') : who0('anonymousGrower');
    return species ? say('plantRegisteredSpecies', { owner, name, species }) : say('plantRegistered', { owner, name });
  },
  'demand.match': (d, who) =>
    say('demandMatch', { grower: who('growerId', 'grower'), amount: kg(num(d, 'quantityKg')), crop: crop(d) }),
  'demand.signal': (d) => {
    const count = Array.isArray(d.crops) ? d.crops.length : 0;
    return say(text(d, 'regionKey') ? 'demandSignalRegion' : 'demandSignal', { count });
  },
  'supply.committed': (d, who) =>
    say('supplyCommitted', { grower: who('growerId', 'grower'), amount: kg(num(d, 'quantityKg')), crop: crop(d) }),
  'farm.harvest': (d) =>
    capital(say('farmHarvest', { amount: kg(num(d, 'yieldKg')), crop: crop(d) })) +
    part('grade', text(d, 'qualityGrade') ? { grade: coded('grades', text(d, 'qualityGrade') as string) } : false) +
    (d.early === true ? say('early') : ''),
  'listing.published': (d, who) =>
    say('listingPublished', { seller: who('sellerId', 'seller'), title: quoted(text(d, 'title')) }),
  'listing.sold': (d, who) =>
    say('listingSold', { seller: who('sellerId', 'seller'), title: quoted(text(d, 'title')) }),
  'listing.cancelled': (_d, who) => say('listingCancelled', { seller: who('sellerId', 'seller') }),
  'offer.made': (d, who) => {
    const values = { buyer: who('buyerId', 'buyer'), seller: who('sellerId', 'sellerLower') };
    const units = num(d, 'quantity');
    return units ? say('offerMadeUnits', { ...values, count: units }) : say('offerMade', values);
  },
  'offer.countered': (_d, who) => say('offerCountered', { seller: who('sellerId', 'seller') }),
  'offer.accepted': (_d, who) => say('offerAccepted', { seller: who('sellerId', 'sellerLower') }),
  'offer.rejected': (d, who) =>
    say(d.reason === 'sold-out' ? 'offerLapsed' : 'offerDeclined', { seller: who('sellerId', 'sellerLower') }),
  'offer.withdrawn': (_d, who) => say('offerWithdrawn', { buyer: who('buyerId', 'buyer') }),
  'transport.completed': (d, who) => {
    const km = num(d, 'distanceKm');
    const kind = text(d, 'kind');
    const what = kind ? (SENTENCES.word('transportKinds', kind) ?? words(kind)) : thing('transport');
    return (
      say('transport', { handler: who('handlerId', 'handler'), what }) +
      part('transportFor', text(d, 'recipientId') ? { recipient: who('recipientId', 'someoneLower') } : false) +
      part('transportOver', km ? { km: km.toLocaleString(currentLanguage()) } : false)
    );
  },
  'evt.chain.block.mined': (d) =>
    say('blockMined', { index: num(d, 'index') ?? '', count: num(d, 'txCount') ?? 0 }).replace('  ', ' '),
  'evt.demand.history.imported': (d, who) =>
    say('historyImported', {
      admin: who('adminId', 'administrator'),
      households: say('households', { count: Array.isArray(d.households) ? d.households.length : 0 }),
      weeks: say('weeks', { count: num(d, 'weeks') ?? 0 }),
    }),
  'evt.demand.probe.recorded': (d, who) =>
    say('probe', { grower: who('growerId', 'grower'), crop: crop(d, 'everyCrop') }) +
    (d.refused === true ? say('probeRefused') : ''),
  'evt.environment.record.added': (d, who) => {
    const cats = Array.isArray(d.categories) ? d.categories : [];
    return (
      say('environmentRecord', { who: who(null, 'grower') }) +
      part('list', cats.length > 0 && { items: codedList('categories', cats) })
    );
  },
  'evt.farm.batch.started': (d, who) => say('batchStarted', { who: who(null, 'farmManager'), crop: crop(d) }),
  'evt.farm.batch.alerted': (d) =>
    say('batchAlerted', { count: num(d, 'deviationCount') ?? 0, farm: text(d, 'farmName') ?? thing('farm') }),
  'evt.farm.batch.ready': (d) =>
    capital(say('batchReady', { crop: cropOf(d) ?? thing('batch'), farm: text(d, 'farmName') ?? thing('farm') })),
  'evt.farm.batch.failed': (d) =>
    say('batchFailed') + part('because', text(d, 'reason') ? { reason: text(d, 'reason') } : false),
  'evt.gateway.user.registered': (d, who) => say('userRegistered', { name: nameOr(d, who) }),
  'evt.gateway.email-verification.requested': (d, who) => say('emailVerification', { name: nameOr(d, who) }),
  'evt.gateway.password-reset.requested': (d, who) => say('passwordReset', { name: nameOr(d, who) }),
  'evt.gateway.password.changed': (d, who) => say('passwordChanged', { name: nameOr(d, who) }),
  'evt.gateway.user.locale-changed': (_d, who) => say('localeChanged', { name: who('userId', 'someone') }),
  'evt.gateway.user.role-changed': (d, who) =>
    say('roleChanged', {
      by: who('changedBy', 'administrator'),
      user: who('userId', 'accountLower'),
      role: role(text(d, 'role')) ?? thing('newRole'),
    }) + roleWas(d),
  'evt.media.file.stored': (d, who) =>
    say(d.kind === 'image' ? 'photoStored' : 'documentStored', { owner: who('ownerId', 'someone') }),
  'evt.media.file.deleted': (_d, who) => say('fileDeleted', { owner: who('ownerId', 'someone') }),
  'evt.organization.profile.created': (d, who) => say('orgCreated', { who: who('createdBy', 'someone'), org: org(d) }),
  'evt.organization.profile.updated': (d, who) =>
    say('orgUpdated', { who: who('changedBy', 'manager'), org: org(d) }) +
    part(
      'list',
      Array.isArray(d.fields) && d.fields.length > 0 && { items: codedList('organizationFields', d.fields) },
    ),
  'evt.organization.profile.dissolved': (d, who) =>
    say('orgDissolved', { who: who('dissolvedBy', 'owner'), org: org(d) }),
  'evt.organization.member.added': (d, who) =>
    say('memberAdded', { who: who('userId', 'someone'), org: org(d) }) + asRole(d),
  'evt.organization.member.role-changed': (d, who) =>
    say('memberRoleChanged', {
      by: who('changedBy', 'manager'),
      user: who('userId', 'memberLower'),
      role: role(text(d, 'role')) ?? thing('newRole'),
      org: org(d),
    }) + roleWas(d),
  'evt.organization.member.removed': (d, who) =>
    say('memberRemoved', { by: who('removedBy', 'manager'), user: who('userId', 'memberLower'), org: org(d) }),
  'evt.organization.member.left': (d, who) => say('memberLeft', { who: who('userId', 'member'), org: org(d) }),
  'evt.organization.invitation.sent': (d, who) =>
    say('invitationSent', { by: who('invitedBy', 'manager'), org: org(d) }) + asRole(d),
  'evt.organization.invitation.declined': (d, who) =>
    say('invitationDeclined', { who: who('userId', 'someone'), org: org(d) }),
  'evt.organization.invitation.revoked': (d, who) =>
    say('invitationRevoked', { by: who('revokedBy', 'manager'), org: org(d) }),
  'evt.plants.plant.cloned': (d, who) => {
    const method = text(d, 'propagationType');
    const generation = num(d, 'generation');
    return (
      say('propagated', { who: who(null, 'grower') }) +
      part('propagatedBy', method ? { method: SENTENCES.word('propagation', method) ?? words(method) } : false) +
      part('generation', generation !== undefined && { generation })
    );
  },
  'evt.plants.transfer.proposed': (d) => say('transferProposed', transferParts(d)),
  'evt.plants.transfer.accepted': (d) => say('transferAccepted', transferParts(d)),
  'evt.plants.transfer.declined': (d) => say('transferDeclined', transferParts(d)),
  'evt.plants.transfer.cancelled': (d) => say('transferCancelled', transferParts(d)),
  'evt.plants.seed-loan.lent': (d, who) => {
    const lender = text(d, 'lenderName') ?? who('lenderId', 'someone');
    const borrower = who('borrowerId', 'someoneLower');
    const crop = cropOf(d);
    return crop ? say('seedLoanLent', { lender, crop, borrower }) : say('seedLoanLentAny', { lender, borrower });
  },
  'evt.transport.epcis-subscription.matched': (_d, who) =>
    say('epcisSubscriptionMatched', { owner: who('ownerId', 'accountLower') }),
  'evt.transparency.webhook.disabled': (d, who) =>
    say('webhookDisabled', { owner: who('ownerId', 'accountLower') }) +
    part('list', text(d, 'reason') ? { items: coded('webhookReasons', text(d, 'reason') as string) } : false),
};

/** The payload keys that hold account ids: a page reads those accounts' names once for all its entries. */
const PEOPLE_KEYS = [
  'sellerId',
  'buyerId',
  'growerId',
  'handlerId',
  'recipientId',
  'ownerId',
  'userId',
  'changedBy',
  'createdBy',
  'removedBy',
  'lenderId',
  'borrowerId',
  'invitedBy',
  'revokedBy',
  'dissolvedBy',
];

/** The account ids an entry's sentence may name (its actor and the people in its payload). */
export function peopleIn(facts: AuditFacts): string[] {
  const d = (facts.data && typeof facts.data === 'object' ? facts.data : {}) as Data;
  const ids = PEOPLE_KEYS.map((k) => text(d, k)).filter((id): id is string => !!id);
  return facts.actor ? [facts.actor, ...ids] : ids;
}

/** The kinds and subjects the sentences know, for tests and documentation. */
export const SENTENCE_KEYS = Object.keys(SENTENCES_BY_KIND);

/**
 * An audit entry in people's words: `Block 12 mined with 3 transactions`, `Alice registered Tomato (Solanum
 * lycopersicum)`, `Bob listed “Basil seedlings”`. People are named by `nameOf` when their account is known, else
 * by their part (`A buyer`). An administrator's entry says what they did and why; a subject without its own
 * sentence is put into words from its parts, never shown raw.
 */
export function auditSentence(facts: AuditFacts, nameOf: NameOf = () => undefined): string {
  const d = (facts.data && typeof facts.data === 'object' ? facts.data : {}) as Data;
  const who = people(d, facts.actor, nameOf);
  // An act for an organization names the person who acted and the organization (`… (Alice acting for Riverside)`).
  const acting = facts.actingFor
    ? say('actedFor', { person: who(null, 'member'), org: thing('quoted', { text: facts.actingFor.name }) })
    : '';
  return sentenceOf(facts, d, who) + acting;
}

function sentenceOf(facts: AuditFacts, d: Data, who: ReturnType<typeof people>): string {
  const subject = facts.subject ?? facts.kind;
  const sentence = SENTENCES_BY_KIND[facts.kind] ?? SENTENCES_BY_KIND[subject];
  if (sentence) return sentence(d, who, facts);
  if (facts.source === 'admin' || subject.startsWith('admin.')) {
    const action = coded('adminActions', subject.replace(/^admin\./, ''));
    return (
      say('adminRecorded', { who: who(null, 'administrator'), action }) +
      part('adminReason', facts.reason ? { reason: facts.reason } : false)
    );
  }
  // evt.<service>.<entity>.<past-tense> → "Entity past-tense"
  const parts = subject.split('.');
  const tail = parts.length >= 3 ? parts.slice(-2) : parts;
  return capital(words(tail.join(' ')));
}
