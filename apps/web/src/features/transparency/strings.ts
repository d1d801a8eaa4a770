import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/transparency.json';
import type { PublicEventKind } from './api/network';

registerEnglish('transparency', english);

/** Every text of the transparency pages, in one place. */
export const TRANSPARENCY = {
  sections: {
    get label() {
      return t('transparency:sections.label');
    },
    get network() {
      return t('transparency:sections.network');
    },
    get audit() {
      return t('transparency:sections.audit');
    },
    get webhooks() {
      return t('transparency:sections.webhooks');
    },
    get signatures() {
      return t('transparency:sections.signatures');
    },
    get exports() {
      return t('transparency:sections.exports');
    },
  },
  network: {
    get title() {
      return t('transparency:network.title');
    },
    get lead() {
      return t('transparency:network.lead');
    },
    get figures() {
      return t('transparency:network.figures');
    },
    get auditEntries() {
      return t('transparency:network.auditEntries');
    },
    get events() {
      return t('transparency:network.events');
    },
    get last24h() {
      return t('transparency:network.last24h');
    },
    get plants() {
      return t('transparency:network.plants');
    },
    get last30d() {
      return t('transparency:network.last30d');
    },
    get transport() {
      return t('transparency:network.transport');
    },
    km: (km: string, co2: string) => t('transparency:network.km', { km, co2 }),
    get byKind() {
      return t('transparency:network.byKind');
    },
    byKindSummary: (top: string) => t('transparency:network.byKindSummary', { top }),
    get perDay() {
      return t('transparency:network.perDay');
    },
    perDaySummary: (total: number, days: number) =>
      t('transparency:network.perDaySummary', {
        events: t('transparency:network.events', { count: total }),
        days: t('transparency:network.days', { count: days }),
      }),
    get deliveries() {
      return t('transparency:network.deliveries');
    },
    deliveriesSummary: (delivered: number, failed: number) =>
      t('transparency:network.deliveriesSummary', { delivered, failed }),
    get none() {
      return t('transparency:network.none');
    },
    get count() {
      return t('transparency:network.count');
    },
    get kind() {
      return t('transparency:network.kind');
    },
    get day() {
      return t('transparency:network.day');
    },
    get status() {
      return t('transparency:network.status');
    },
  },
  feed: {
    get title() {
      return t('transparency:feed.title');
    },
    get lead() {
      return t('transparency:feed.lead');
    },
    get empty() {
      return t('transparency:feed.empty');
    },
    arrived: (kind: string) => t('transparency:feed.arrived', { kind }),
  },
  audit: {
    get title() {
      return t('transparency:audit.title');
    },
    get lead() {
      return t('transparency:audit.lead');
    },
    get filters() {
      return t('transparency:audit.filters');
    },
    get kind() {
      return t('transparency:audit.kind');
    },
    get actor() {
      return t('transparency:audit.actor');
    },
    get entity() {
      return t('transparency:audit.entity');
    },
    get from() {
      return t('transparency:audit.from');
    },
    get to() {
      return t('transparency:audit.to');
    },
    get apply() {
      return t('transparency:audit.apply');
    },
    get clear() {
      return t('transparency:audit.clear');
    },
    get none() {
      return t('transparency:audit.none');
    },
    get publicLead() {
      return t('transparency:audit.publicLead');
    },
    columns: {
      get index() {
        return t('transparency:audit.columns.index');
      },
      get what() {
        return t('transparency:audit.columns.what');
      },
      get actor() {
        return t('transparency:audit.columns.actor');
      },
      get occurred() {
        return t('transparency:audit.columns.occurred');
      },
      get check() {
        return t('transparency:audit.columns.check');
      },
    },
    get someone() {
      return t('transparency:audit.someone');
    },
    ids: {
      get entity() {
        return t('transparency:audit.ids.entity');
      },
      get actor() {
        return t('transparency:audit.ids.actor');
      },
      get event() {
        return t('transparency:audit.ids.event');
      },
      get kind() {
        return t('transparency:audit.ids.kind');
      },
    },
    verify: (index: number) => t('transparency:audit.verify', { index }),
    get checking() {
      return t('transparency:audit.checking');
    },
    get head() {
      return t('transparency:audit.head');
    },
    get size() {
      return t('transparency:audit.size');
    },
    get root() {
      return t('transparency:audit.root');
    },
    get signedAt() {
      return t('transparency:audit.signedAt');
    },
    valid: (index: number) => t('transparency:audit.valid', { index }),
    invalid: (index: number) => t('transparency:audit.invalid', { index }),
    checks: {
      get content() {
        return t('transparency:audit.checks.content');
      },
      get contentHidden() {
        return t('transparency:audit.checks.contentHidden');
      },
      inclusion: (n: string) => t('transparency:audit.checks.inclusion', { count: Number(n) }),
      get signature() {
        return t('transparency:audit.checks.signature');
      },
    },
    get pass() {
      return t('transparency:audit.pass');
    },
    get fail() {
      return t('transparency:audit.fail');
    },
    get skipped() {
      return t('transparency:audit.skipped');
    },
    get previous() {
      return t('transparency:audit.previous');
    },
    get next() {
      return t('transparency:audit.next');
    },
    page: (page: number, pages: number) => t('transparency:audit.page', { page, pages }),
  },
  webhooks: {
    get active() {
      return t('transparency:webhooks.active');
    },
    get title() {
      return t('transparency:webhooks.title');
    },
    get lead() {
      return t('transparency:webhooks.lead');
    },
    get create() {
      return t('transparency:webhooks.create');
    },
    get url() {
      return t('transparency:webhooks.url');
    },
    get events() {
      return t('transparency:webhooks.events');
    },
    get scope() {
      return t('transparency:webhooks.scope');
    },
    scopes: {
      get own() {
        return t('transparency:webhooks.scopes.own');
      },
      get public() {
        return t('transparency:webhooks.scopes.public');
      },
    },
    get secret() {
      return t('transparency:webhooks.secret');
    },
    get secretHint() {
      return t('transparency:webhooks.secretHint');
    },
    get save() {
      return t('transparency:webhooks.save');
    },
    get saving() {
      return t('transparency:webhooks.saving');
    },
    get none() {
      return t('transparency:webhooks.none');
    },
    get status() {
      return t('transparency:webhooks.status');
    },
    get created() {
      return t('transparency:webhooks.created');
    },
    get edit() {
      return t('transparency:webhooks.edit');
    },
    get cancel() {
      return t('transparency:webhooks.cancel');
    },
    get saveChanges() {
      return t('transparency:webhooks.saveChanges');
    },
    get rotate() {
      return t('transparency:webhooks.rotate');
    },
    get test() {
      return t('transparency:webhooks.test');
    },
    get delete() {
      return t('transparency:webhooks.delete');
    },
    get enable() {
      return t('transparency:webhooks.enable');
    },
    get deliveries() {
      return t('transparency:webhooks.deliveries');
    },
    get secretOnce() {
      return t('transparency:webhooks.secretOnce');
    },
    tested: (ok: boolean, status: number | null, ms: number) =>
      ok
        ? t('transparency:webhooks.tested', { status, ms })
        : status
          ? t('transparency:webhooks.notDeliveredStatus', { status })
          : t('transparency:webhooks.notDelivered'),
    disabled: (reason: string | null) =>
      reason ? t('transparency:webhooks.disabledBecause', { reason }) : t('transparency:webhooks.disabled'),
    columns: {
      get kind() {
        return t('transparency:webhooks.columns.kind');
      },
      get status() {
        return t('transparency:webhooks.columns.status');
      },
      get attempts() {
        return t('transparency:webhooks.columns.attempts');
      },
      get last() {
        return t('transparency:webhooks.columns.last');
      },
      get next() {
        return t('transparency:webhooks.columns.next');
      },
      get action() {
        return t('transparency:webhooks.columns.action');
      },
    },
    get redeliver() {
      return t('transparency:webhooks.redeliver');
    },
    get noDeliveries() {
      return t('transparency:webhooks.noDeliveries');
    },
    get refresh() {
      return t('transparency:webhooks.refresh');
    },
    of: (url: string) => t('transparency:webhooks.of', { url }),
  },
  signatures: {
    get title() {
      return t('transparency:signatures.title');
    },
    get lead() {
      return t('transparency:signatures.lead');
    },
    get keys() {
      return t('transparency:signatures.keys');
    },
    get label() {
      return t('transparency:signatures.label');
    },
    get register() {
      return t('transparency:signatures.register');
    },
    get registering() {
      return t('transparency:signatures.registering');
    },
    get unsupported() {
      return t('transparency:signatures.unsupported');
    },
    get noKeys() {
      return t('transparency:signatures.noKeys');
    },
    get inBrowser() {
      return t('transparency:signatures.inBrowser');
    },
    get elsewhere() {
      return t('transparency:signatures.elsewhere');
    },
    get revoked() {
      return t('transparency:signatures.revoked');
    },
    get revoke() {
      return t('transparency:signatures.revoke');
    },
    get sign() {
      return t('transparency:signatures.sign');
    },
    get subjectType() {
      return t('transparency:signatures.subjectType');
    },
    subjectTypes: {
      get 'transport-event'() {
        return t('transparency:signatures.subjectTypes.transport-event');
      },
      get 'ownership-transfer'() {
        return t('transparency:signatures.subjectTypes.ownership-transfer');
      },
      get certificate() {
        return t('transparency:signatures.subjectTypes.certificate');
      },
    },
    get subjectId() {
      return t('transparency:signatures.subjectId');
    },
    get load() {
      return t('transparency:signatures.load');
    },
    get statement() {
      return t('transparency:signatures.statement');
    },
    get key() {
      return t('transparency:signatures.key');
    },
    get signIt() {
      return t('transparency:signatures.signIt');
    },
    get signed() {
      return t('transparency:signatures.signed');
    },
    get list() {
      return t('transparency:signatures.list');
    },
    get checkHere() {
      return t('transparency:signatures.checkHere');
    },
    get checkedHere() {
      return t('transparency:signatures.checkedHere');
    },
    get failedHere() {
      return t('transparency:signatures.failedHere');
    },
    get none() {
      return t('transparency:signatures.none');
    },
    get verify() {
      return t('transparency:signatures.verify');
    },
    get verifyLead() {
      return t('transparency:signatures.verifyLead');
    },
    get statementJson() {
      return t('transparency:signatures.statementJson');
    },
    get signature() {
      return t('transparency:signatures.signature');
    },
    get publicKey() {
      return t('transparency:signatures.publicKey');
    },
    get check() {
      return t('transparency:signatures.check');
    },
    get valid() {
      return t('transparency:signatures.valid');
    },
    get invalid() {
      return t('transparency:signatures.invalid');
    },
    get badJson() {
      return t('transparency:signatures.badJson');
    },
  },
  exports: {
    get title() {
      return t('transparency:exports.title');
    },
    get lead() {
      return t('transparency:exports.lead');
    },
    get history() {
      return t('transparency:exports.history');
    },
    get types() {
      return t('transparency:exports.types');
    },
    get from() {
      return t('transparency:exports.from');
    },
    get to() {
      return t('transparency:exports.to');
    },
    formats: {
      get json() {
        return t('transparency:exports.formats.json');
      },
      get csv() {
        return t('transparency:exports.formats.csv');
      },
      get epcis() {
        return t('transparency:exports.formats.epcis');
      },
    },
    download: (format: string) => t('transparency:exports.download', { format }),
    get preparing() {
      return t('transparency:exports.preparing');
    },
    downloaded: (name: string) => t('transparency:exports.downloaded', { name }),
    get report() {
      return t('transparency:exports.report');
    },
    get adminOnly() {
      return t('transparency:exports.adminOnly');
    },
    get auditValid() {
      return t('transparency:exports.auditValid');
    },
    get ledgerValid() {
      return t('transparency:exports.ledgerValid');
    },
    get yes() {
      return t('transparency:exports.yes');
    },
    get no() {
      return t('transparency:exports.no');
    },
    get entries() {
      return t('transparency:exports.entries');
    },
    get adminActions() {
      return t('transparency:exports.adminActions');
    },
    get blocks() {
      return t('transparency:exports.blocks');
    },
    get successRate() {
      return t('transparency:exports.successRate');
    },
    get averageAttempts() {
      return t('transparency:exports.averageAttempts');
    },
    get events() {
      return t('transparency:exports.events');
    },
    get privacy() {
      return t('transparency:exports.privacy');
    },
    get retention() {
      return t('transparency:exports.retention');
    },
    get level() {
      return t('transparency:exports.level');
    },
    get count() {
      return t('transparency:exports.count');
    },
  },
};

/** A person's name for each public event kind (the Record makes the compiler ask for a new kind). */
export const KIND_LABELS: Record<PublicEventKind, string> = {
  get 'demand.match'() {
    return t('transparency:kindLabels.demand-match');
  },
  get 'demand.signal'() {
    return t('transparency:kindLabels.demand-signal');
  },
  get 'farm.harvest'() {
    return t('transparency:kindLabels.farm-harvest');
  },
  get 'listing.cancelled'() {
    return t('transparency:kindLabels.listing-cancelled');
  },
  get 'listing.published'() {
    return t('transparency:kindLabels.listing-published');
  },
  get 'listing.sold'() {
    return t('transparency:kindLabels.listing-sold');
  },
  get 'offer.accepted'() {
    return t('transparency:kindLabels.offer-accepted');
  },
  get 'offer.countered'() {
    return t('transparency:kindLabels.offer-countered');
  },
  get 'offer.made'() {
    return t('transparency:kindLabels.offer-made');
  },
  get 'offer.rejected'() {
    return t('transparency:kindLabels.offer-rejected');
  },
  get 'offer.withdrawn'() {
    return t('transparency:kindLabels.offer-withdrawn');
  },
  get 'plant.registered'() {
    return t('transparency:kindLabels.plant-registered');
  },
  get 'supply.committed'() {
    return t('transparency:kindLabels.supply-committed');
  },
  get 'transport.completed'() {
    return t('transparency:kindLabels.transport-completed');
  },
};

export const EVENT_KINDS = Object.keys(KIND_LABELS) as PublicEventKind[];

/** The label of a kind, or the kind itself when it is not a public one. */
export function kindLabel(kind: string): string {
  return (KIND_LABELS as Record<string, string>)[kind] ?? kind;
}

/** The QR code panel of a plant's page. */
export const QR = {
  get title() {
    return t('transparency:qr.title');
  },
  get lead() {
    return t('transparency:qr.lead');
  },
  get image() {
    return t('transparency:qr.image');
  },
};

type CertificateStep = keyof typeof english.certificate.steps;

/** The certificate panel of a plant's page. */
export const CERTIFICATE = {
  get title() {
    return t('transparency:certificate.title');
  },
  get lead() {
    return t('transparency:certificate.lead');
  },
  get verify() {
    return t('transparency:certificate.verify');
  },
  get verifying() {
    return t('transparency:certificate.verifying');
  },
  get download() {
    return t('transparency:certificate.download');
  },
  get downloading() {
    return t('transparency:certificate.downloading');
  },
  get valid() {
    return t('transparency:certificate.valid');
  },
  get invalid() {
    return t('transparency:certificate.invalid');
  },
  get keyId() {
    return t('transparency:certificate.keyId');
  },
  get issued() {
    return t('transparency:certificate.issued');
  },
  get block() {
    return t('transparency:certificate.block');
  },
  get checks() {
    return t('transparency:certificate.checks');
  },
  get pass() {
    return t('transparency:certificate.pass');
  },
  get fail() {
    return t('transparency:certificate.fail');
  },
  step: (step: CertificateStep) => t(`transparency:certificate.steps.${step}`),
};

type LabelLayoutKey = keyof typeof english.labels.layouts;

/** The form that prints label sheets and seed packets. */
export const LABELS = {
  get title() {
    return t('transparency:labels.title');
  },
  get lead() {
    return t('transparency:labels.lead');
  },
  get layout() {
    return t('transparency:labels.layout');
  },
  layoutName: (layout: LabelLayoutKey) => t(`transparency:labels.layouts.${layout}`),
  get startAt() {
    return t('transparency:labels.startAt');
  },
  startHint: (perPage: number) => t('transparency:labels.startHint', { perPage }),
  get harvested() {
    return t('transparency:labels.harvested');
  },
  get harvestedHint() {
    return t('transparency:labels.harvestedHint');
  },
  download: (count: number) => t('transparency:labels.download', { count }),
  get downloading() {
    return t('transparency:labels.downloading');
  },
  get none() {
    return t('transparency:labels.none');
  },
  tooMany: (count: number) => t('transparency:labels.tooMany', { count }),
  get done() {
    return t('transparency:labels.done');
  },
};

type Plain<K> = K extends `${infer Base}_${'one' | 'other'}` ? Base : K;
/** The keys of the audit log's sentences (a plural's base key once). */
export type SentenceKey = Plain<Exclude<keyof typeof english.sentences, Group>>;
/** The groups of words a sentence takes its parts from: people, things, and the API's codes in words. */
export type Group =
  | 'who'
  | 'things'
  | 'transportKinds'
  | 'propagation'
  | 'roles'
  | 'crops'
  | 'grades'
  | 'categories'
  | 'organizationFields'
  | 'webhookReasons'
  | 'adminActions';
const translate = t as unknown as (key: string, values?: Record<string, unknown>) => string;

/** The audit log's sentences and their parts (features/transparency/lib/audit-sentences.ts puts them together). */
export const SENTENCES = {
  say: (key: SentenceKey, values?: Record<string, unknown>) => translate(`transparency:sentences.${key}`, values),
  /** A word of a group (`who.grower`), or undefined when the group has no such word. */
  word: (group: Group, key: string, values?: Record<string, unknown>): string | undefined =>
    key in english.sentences[group] ? translate(`transparency:sentences.${group}.${key}`, values) : undefined,
};
