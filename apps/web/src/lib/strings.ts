import { registerEnglish, t } from '../i18n';
import english from '../locales/en/common.json';

registerEnglish('common', english);

type Levels = keyof typeof english.privacy.levels;
type Formats = keyof typeof english.errors.formats;
type Types = keyof typeof english.errors.types;
type Labels = keyof typeof english.errors.labels;
type Reasons = keyof typeof english.refusals.reasons;
type Codes = keyof typeof english.refusals.codes;

/** The texts of the shared components and of the plain-words rewording of the API's refusals. */
export const COMMON = {
  errors: {
    label: (name: string): string | undefined =>
      name in english.errors.labels ? t(`common:errors.labels.${name as Labels}`) : undefined,
    format: (name: string) =>
      t(
        `common:errors.formats.${(name === 'url' ? 'uri' : name in english.errors.formats ? name : 'other') as Formats}`,
      ),
    type: (name: string) => t(`common:errors.types.${name as Types}`),
    get required() {
      return t('common:errors.required');
    },
    minLength: (count: number) => t('common:errors.minLength', { count }),
    maxLength: (count: number) => t('common:errors.maxLength', { count }),
    get minItemsOne() {
      return t('common:errors.minItemsOne');
    },
    minItems: (count: number) => t('common:errors.minItems', { count }),
    maxItems: (count: number) => t('common:errors.maxItems', { count }),
    max: (limit: string) => t('common:errors.max', { limit }),
    min: (limit: string) => t('common:errors.min', { limit }),
    below: (limit: string) => t('common:errors.below', { limit }),
    above: (limit: string) => t('common:errors.above', { limit }),
    get webAddress() {
      return t('common:errors.webAddress');
    },
    idPrefix: (prefix: string) => t('common:errors.idPrefix', { prefix }),
    get partialDate() {
      return t('common:errors.partialDate');
    },
    oneOf: (values: string) => t('common:errors.oneOf', { values }),
    get oneOfOffered() {
      return t('common:errors.oneOfOffered');
    },
    get notAccepted() {
      return t('common:errors.notAccepted');
    },
    get privateAddress() {
      return t('common:errors.privateAddress');
    },
    get linkExpired() {
      return t('common:errors.linkExpired');
    },
    get notAccountName() {
      return t('common:errors.notAccountName');
    },
    get emailExists() {
      return t('common:errors.emailExists');
    },
    get future() {
      return t('common:errors.future');
    },
    get notFuture() {
      return t('common:errors.notFuture');
    },
    get validTime() {
      return t('common:errors.validTime');
    },
    checkFields: (count: number) => t('common:errors.checkField', { count }),
    field: (label: string, message: string) => t('common:errors.field', { label, message }),
  },
  refusals: {
    /** The words for a refusal's `details.reason`, or undefined for a reason this app does not know. */
    reason: (reason: string) =>
      Object.hasOwn(english.refusals.reasons, reason) ? t(`common:refusals.reasons.${reason as Reasons}`) : undefined,
    /** The general sentence for an error code (`FORBIDDEN`), or for an unknown code. */
    code: (code: string) =>
      t(`common:refusals.codes.${(Object.hasOwn(english.refusals.codes, code) ? code : 'other') as Codes}`),
    /** The API's own (English) words, shown beside the general sentence when the app knows no better. */
    detail: (message: string) => t('common:refusals.detail', { message }),
  },
  status: {
    get busyTitle() {
      return t('common:status.busyTitle');
    },
    busy: (seconds: number) =>
      seconds > 0 ? t('common:status.busy', { count: seconds }) : t('common:status.retrying'),
    get retry() {
      return t('common:status.retry');
    },
    get loading() {
      return t('common:status.loading');
    },
  },
  toasts: {
    get region() {
      return t('common:toasts.region');
    },
    get dismiss() {
      return t('common:toasts.dismiss');
    },
  },
  get copied() {
    return t('common:copied');
  },
  pager: {
    get previous() {
      return t('common:pager.previous');
    },
    get next() {
      return t('common:pager.next');
    },
    page: (page: number, pages: number) => t('common:pager.page', { page, pages }),
  },
  get showData() {
    return t('common:chart.showData');
  },
  live: {
    get live() {
      return t('common:live.live');
    },
    get connecting() {
      return t('common:live.connecting');
    },
    get fallback() {
      return t('common:live.fallback');
    },
    get offline() {
      return t('common:live.offline');
    },
    title: (state: keyof typeof english.live.title) => t(`common:live.title.${state}`),
  },
  party: {
    statedBy: (name: string) => t('common:party.statedBy', { name }),
    now: (name: string) => t('common:party.now', { name }),
  },
  privacy: {
    get label() {
      return t('common:privacy.label');
    },
    get never() {
      return t('common:privacy.never');
    },
    level: (level: Levels) => t(`common:privacy.levels.${level}.label`),
    shows: (level: Levels) => t(`common:privacy.levels.${level}.shows`),
  },
  location: {
    get legend() {
      return t('common:location.legend');
    },
    get hint() {
      return t('common:location.hint');
    },
    get hintWithoutSearch() {
      return t('common:location.hintWithoutSearch');
    },
    get noSearch() {
      return t('common:location.noSearch');
    },
    get map() {
      return t('common:location.map');
    },
    get latitude() {
      return t('common:location.latitude');
    },
    get longitude() {
      return t('common:location.longitude');
    },
    get city() {
      return t('common:location.city');
    },
    get country() {
      return t('common:location.country');
    },
    get countryHint() {
      return t('common:location.countryHint');
    },
    get picked() {
      return t('common:location.picked');
    },
    get pickCentre() {
      return t('common:location.pickCentre');
    },
  },
  place: {
    get label() {
      return t('common:place.label');
    },
    get hint() {
      return t('common:place.hint');
    },
    get results() {
      return t('common:place.results');
    },
    tooShort: (count: number) => t('common:place.tooShort', { count }),
    get searching() {
      return t('common:place.searching');
    },
    found: (count: number) => t('common:place.found', { count }),
    none: (query: string) => t('common:place.none', { query }),
    chosen: (name: string, latitude: number, longitude: number) =>
      t('common:place.chosen', { name, latitude, longitude }),
    get failed() {
      return t('common:place.failed');
    },
    people: (count: number) => t('common:place.people', { count }),
  },
  get details() {
    return t('common:details');
  },
};
