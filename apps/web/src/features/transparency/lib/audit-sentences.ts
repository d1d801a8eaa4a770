import { countOf } from '../../../lib/plural';

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
}

/** An account's display name by id, when it is known. */
export type NameOf = (id: string) => string | undefined;

type Data = Record<string, unknown>;
const text = (d: Data, key: string) => (typeof d[key] === 'string' ? (d[key] as string) : undefined);
const num = (d: Data, key: string) => (typeof d[key] === 'number' ? (d[key] as number) : undefined);
const kg = (n: number | undefined) =>
  n === undefined ? 'some' : `${n.toLocaleString(undefined, { maximumFractionDigits: 1 })} kg`;
const words = (s: string) => s.replace(/[-_.]/g, ' ');
const quoted = (s: string | undefined) => (s ? `“${s}”` : 'a listing');
const org = (d: Data) => (text(d, 'organizationName') ? `“${text(d, 'organizationName')}”` : 'an organization');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The people a sentence names (by a payload key, or `null` for the actor): their name, else their part. */
function people(d: Data, actor: string | null | undefined, nameOf: NameOf) {
  return (key: string | null, fallback: string): string => {
    const id = key === null ? actor : text(d, key);
    return (id ? nameOf(id) : undefined) ?? fallback;
  };
}

type Sentence = (d: Data, who: ReturnType<typeof people>, facts: AuditFacts) => string;

/** One sentence per public event kind (docs/event-kinds.md) and per internal event subject. */
const SENTENCES: Readonly<Record<string, Sentence>> = {
  'plant.registered': (d, who) => {
    const name = text(d, 'commonName') ?? 'a plant';
    const species = text(d, 'scientificName');
    const owner = text(d, 'ownerId') ? who('ownerId', 'A grower') : 'An anonymous grower';
    return `${owner} registered ${name}${species ? ` (${species})` : ''}`;
  },
  'demand.match': (d, who) =>
    `${who('growerId', 'A grower')}’s ${kg(num(d, 'quantityKg'))} of ${text(d, 'crop') ?? 'a crop'} was matched with a household nearby`,
  'demand.signal': (d) => {
    const crops = Array.isArray(d.crops) ? d.crops.length : 0;
    return `Demand signal: ${countOf(crops, 'crop')} asked for${text(d, 'regionKey') ? ' in a region' : ''}`;
  },
  'supply.committed': (d, who) =>
    `${who('growerId', 'A grower')} committed ${kg(num(d, 'quantityKg'))} of ${text(d, 'crop') ?? 'a crop'}`,
  'farm.harvest': (d) =>
    `${capital(kg(num(d, 'yieldKg')))} of ${text(d, 'crop') ?? 'a crop'} harvested${text(d, 'qualityGrade') ? `, grade ${text(d, 'qualityGrade')}` : ''}${d.early === true ? ', early' : ''}`,
  'listing.published': (d, who) => `${who('sellerId', 'A seller')} listed ${quoted(text(d, 'title'))}`,
  'listing.sold': (d, who) => `${who('sellerId', 'A seller')} sold out ${quoted(text(d, 'title'))}`,
  'listing.cancelled': (_d, who) => `${who('sellerId', 'A seller')} cancelled a listing`,
  'offer.made': (d, who) =>
    `${who('buyerId', 'A buyer')} made an offer${num(d, 'quantity') ? ` for ${countOf(num(d, 'quantity') as number, 'unit')}` : ''} to ${who('sellerId', 'a seller')}`,
  'offer.countered': (_d, who) => `${who('sellerId', 'A seller')} answered an offer with a counter price`,
  'offer.accepted': (_d, who) => `An offer to ${who('sellerId', 'a seller')} was accepted`,
  'offer.rejected': (d, who) =>
    d.reason === 'sold-out'
      ? `An offer to ${who('sellerId', 'a seller')} lapsed: the listing sold out`
      : `An offer to ${who('sellerId', 'a seller')} was declined`,
  'offer.withdrawn': (_d, who) => `${who('buyerId', 'A buyer')} withdrew an offer`,
  'transport.completed': (d, who) => {
    const km = num(d, 'distanceKm');
    const what = text(d, 'kind') ? words(text(d, 'kind') as string) : 'transport';
    const to = text(d, 'recipientId') ? ` for ${who('recipientId', 'someone')}` : '';
    return `${who('handlerId', 'A handler')} recorded a ${what}${to}${km ? ` over ${km.toLocaleString()} km` : ''}`;
  },
  'evt.chain.block.mined': (d) =>
    `Block ${num(d, 'index') ?? ''} mined with ${countOf(num(d, 'txCount') ?? 0, 'transaction')}`.replace('  ', ' '),
  'evt.demand.history.imported': (d, who) =>
    `${who('adminId', 'An administrator')} imported demand history: ${countOf(Array.isArray(d.households) ? d.households.length : 0, 'household')} settled, ${countOf(num(d, 'weeks') ?? 0, 'week')} of demand`,
  'evt.demand.probe.recorded': (d, who) =>
    `${who('growerId', 'A grower')} looked for demand for ${text(d, 'crop') ?? 'every crop'}${d.refused === true ? ', refused: the day’s limit was reached' : ''}`,
  'evt.environment.record.added': (d, who) => {
    const cats = Array.isArray(d.categories) ? d.categories.filter((c) => typeof c === 'string') : [];
    return `${who(null, 'A grower')} added an environment record${cats.length ? ` (${cats.join(', ')})` : ''}`;
  },
  'evt.farm.batch.started': (d, who) =>
    `${who(null, 'A farm manager')} started a batch of ${text(d, 'crop') ?? 'a crop'}`,
  'evt.farm.batch.alerted': (d) =>
    `${countOf(num(d, 'deviationCount') ?? 0, 'reading')} out of range at ${text(d, 'farmName') ?? 'a farm'}`,
  'evt.farm.batch.ready': (d) =>
    `${capital(text(d, 'crop') ?? 'a batch')} at ${text(d, 'farmName') ?? 'a farm'} is ready to harvest`,
  'evt.farm.batch.failed': (d) => `A batch failed${text(d, 'reason') ? `: ${text(d, 'reason')}` : ''}`,
  'evt.gateway.user.registered': (d, who) => `${text(d, 'name') ?? who('userId', 'Someone')} joined Rootline`,
  'evt.gateway.email-verification.requested': (d, who) =>
    `${text(d, 'name') ?? who('userId', 'Someone')} asked to confirm an email address`,
  'evt.gateway.password-reset.requested': (d, who) =>
    `${text(d, 'name') ?? who('userId', 'Someone')} asked to reset a password`,
  'evt.gateway.password.changed': (d, who) => `${text(d, 'name') ?? who('userId', 'Someone')} changed a password`,
  'evt.gateway.user.locale-changed': (_d, who) => `${who('userId', 'Someone')} chose the language of their account`,
  'evt.gateway.user.role-changed': (d, who) =>
    `${who('changedBy', 'An administrator')} made ${who('userId', 'an account')} ${text(d, 'role') ?? 'a new role'}${text(d, 'previousRole') ? ` (was ${text(d, 'previousRole')})` : ''}`,
  'evt.media.file.stored': (d, who) =>
    `${who('ownerId', 'Someone')} uploaded ${d.kind === 'image' ? 'a photo' : 'a document'}`,
  'evt.media.file.deleted': (_d, who) => `${who('ownerId', 'Someone')} deleted a file`,
  'evt.organization.profile.created': (d, who) => `${who('createdBy', 'Someone')} created the organization ${org(d)}`,
  'evt.organization.profile.updated': (d, who) =>
    `${who('changedBy', 'A manager')} edited the profile of ${org(d)}${Array.isArray(d.fields) && d.fields.length ? ` (${d.fields.join(', ')})` : ''}`,
  'evt.organization.profile.dissolved': (d, who) => `${who('dissolvedBy', 'An owner')} dissolved ${org(d)}`,
  'evt.organization.member.added': (d, who) =>
    `${who('userId', 'Someone')} joined ${org(d)}${text(d, 'role') ? ` as ${text(d, 'role')}` : ''}`,
  'evt.organization.member.role-changed': (d, who) =>
    `${who('changedBy', 'A manager')} made ${who('userId', 'a member')} ${text(d, 'role') ?? 'a new role'} of ${org(d)}${text(d, 'previousRole') ? ` (was ${text(d, 'previousRole')})` : ''}`,
  'evt.organization.member.removed': (d, who) =>
    `${who('removedBy', 'A manager')} removed ${who('userId', 'a member')} from ${org(d)}`,
  'evt.organization.member.left': (d, who) => `${who('userId', 'A member')} left ${org(d)}`,
  'evt.organization.invitation.sent': (d, who) =>
    `${who('invitedBy', 'A manager')} invited someone to ${org(d)}${text(d, 'role') ? ` as ${text(d, 'role')}` : ''}`,
  'evt.organization.invitation.declined': (d, who) => `${who('userId', 'Someone')} declined an invitation to ${org(d)}`,
  'evt.organization.invitation.revoked': (d, who) =>
    `${who('revokedBy', 'A manager')} revoked an invitation to ${org(d)}`,
  'evt.plants.plant.cloned': (d, who) =>
    `${who(null, 'A grower')} propagated a plant${text(d, 'propagationType') ? ` by ${words(text(d, 'propagationType') as string)}` : ''}${num(d, 'generation') !== undefined ? `, generation ${num(d, 'generation')}` : ''}`,
  'evt.transparency.webhook.disabled': (d, who) =>
    `A webhook of ${who('ownerId', 'an account')} was turned off${text(d, 'reason') ? ` (${words(text(d, 'reason') as string)})` : ''}`,
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
export const SENTENCE_KEYS = Object.keys(SENTENCES);

/**
 * An audit entry in people's words: `Block 12 mined with 3 transactions`, `Alice registered Tomato (Solanum
 * lycopersicum)`, `Bob listed “Basil seedlings”`. People are named by `nameOf` when their account is known, else
 * by their part (`A buyer`). An administrator's entry says what they did and why; a subject without its own
 * sentence is put into words from its parts, never shown raw.
 */
export function auditSentence(facts: AuditFacts, nameOf: NameOf = () => undefined): string {
  const d = (facts.data && typeof facts.data === 'object' ? facts.data : {}) as Data;
  const who = people(d, facts.actor, nameOf);
  const subject = facts.subject ?? facts.kind;
  const sentence = SENTENCES[facts.kind] ?? SENTENCES[subject];
  if (sentence) return sentence(d, who, facts);
  if (facts.source === 'admin' || subject.startsWith('admin.')) {
    const action = words(subject.replace(/^admin\./, ''));
    return `${who(null, 'An administrator')} recorded: ${action}${facts.reason ? ` (“${facts.reason}”)` : ''}`;
  }
  // evt.<service>.<entity>.<past-tense> → "Entity past-tense"
  const parts = subject.split('.');
  const tail = parts.length >= 3 ? parts.slice(-2) : parts;
  return capital(words(tail.join(' ')));
}
