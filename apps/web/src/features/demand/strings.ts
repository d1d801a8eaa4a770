import type { components } from '@rootline/sdk';
import { currentLanguage, registerEnglish, t } from '../../i18n';
import { formatNumber } from '../../lib/format';
import english from '../../locales/en/demand.json';
import type { PreferenceItem, RecommendationQuery } from './api/demand';

registerEnglish('demand', english);

/** The crops of the demand model (docs/demand.md, crop table). */
export const CROPS = [
  'tomato',
  'lettuce',
  'spinach',
  'kale',
  'carrot',
  'beetroot',
  'radish',
  'potato',
  'onion',
  'garlic',
  'cucumber',
  'zucchini',
  'pepper',
  'green-bean',
  'pea',
  'strawberry',
  'basil',
  'microgreens',
] as const satisfies readonly PreferenceItem['crop'][];

export const UNITS = ['kg', 'piece', 'bunch'] as const satisfies readonly PreferenceItem['unit'][];
export const SEASONS = ['spring', 'summer', 'autumn', 'winter'] as const satisfies readonly NonNullable<
  PreferenceItem['seasons']
>[number][];
export const METHODS = ['open-field', 'greenhouse', 'vertical'] as const satisfies readonly NonNullable<
  RecommendationQuery['method']
>[];

/** Why a crop is recommended, as the API names it: a code with the values of its sentence. */
export type CropReason = components['schemas']['CropReason'];

const kg = (n: number) => formatNumber(n, 1);
const price = (amount: number, currency: string) =>
  amount.toLocaleString(currentLanguage(), { style: 'currency', currency });
/** A `YYYY-MM-DD` date as the reader's language writes it. */
const day = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(currentLanguage(), { dateStyle: 'medium', timeZone: 'UTC' });
/** A growing method as a sentence names it ("in a greenhouse"). */
const inText = (method: (typeof METHODS)[number]) => t(`demand:recommend.methodInText.${method}`);

/**
 * A reason in words, from its code and values (ADR 255): the key is the code's, the values are written the reader's
 * way (numbers, dates, prices; a crop stays the API's name, as elsewhere).
 */
function cropReason(r: CropReason): string {
  switch (r.code) {
    case 'not-grown':
      return t('demand:recommend.reasons.not-grown', { crop: r.params.crop, method: inText(r.params.method) });
    case 'not-sowable':
    case 'sowable':
      return t(`demand:recommend.reasons.${r.code}`, { month: r.params.month, method: inText(r.params.method) });
    case 'first-harvest':
      return t('demand:recommend.reasons.first-harvest', { date: day(r.params.date), count: r.params.days });
    case 'unmet-demand':
      return t('demand:recommend.reasons.unmet-demand', {
        unmetKg: kg(r.params.unmetKg),
        wantedKg: kg(r.params.wantedKg),
        committedKg: kg(r.params.committedKg),
        count: r.params.weeks,
      });
    case 'withheld':
      return t('demand:recommend.reasons.withheld', { minHouseholds: formatNumber(r.params.minHouseholds, 0) });
    case 'expected-yield':
      return t('demand:recommend.reasons.expected-yield', {
        yieldKg: kg(r.params.yieldKg),
        areaM2: formatNumber(r.params.areaM2, 2),
        kgPerM2: formatNumber(r.params.kgPerM2, 2),
      });
    case 'reference-price':
    case 'median-price':
      return t(`demand:recommend.reasons.${r.code}`, { price: price(r.params.pricePerKg, r.params.currency) });
  }
}

/** Every text of the demand pages, in one place. */
export const DEMAND = {
  tabs: {
    get label() {
      return t('demand:tabs.label');
    },
    get preferences() {
      return t('demand:tabs.preferences');
    },
    get planning() {
      return t('demand:tabs.planning');
    },
    get supply() {
      return t('demand:tabs.supply');
    },
  },
  preferences: {
    get title() {
      return t('demand:preferences.title');
    },
    get lead() {
      return t('demand:preferences.lead');
    },
    get saved() {
      return t('demand:preferences.saved');
    },
    get none() {
      return t('demand:preferences.none');
    },
    get radius() {
      return t('demand:preferences.radius');
    },
    get household() {
      return t('demand:preferences.household');
    },
    get items() {
      return t('demand:preferences.items');
    },
    get crop() {
      return t('demand:preferences.crop');
    },
    get quantity() {
      return t('demand:preferences.quantity');
    },
    get unit() {
      return t('demand:preferences.unit');
    },
    get maxPrice() {
      return t('demand:preferences.maxPrice');
    },
    get organic() {
      return t('demand:preferences.organic');
    },
    get local() {
      return t('demand:preferences.local');
    },
    get seasons() {
      return t('demand:preferences.seasons');
    },
    get add() {
      return t('demand:preferences.add');
    },
    remove: (crop: string) => t('demand:preferences.remove', { crop }),
    get submit() {
      return t('demand:preferences.submit');
    },
    get busy() {
      return t('demand:preferences.busy');
    },
    get missingLocation() {
      return t('demand:preferences.missingLocation');
    },
    updated: (when: string) => t('demand:preferences.updated', { when }),
  },
  units: {
    get kg() {
      return t('demand:units.kg');
    },
    get piece() {
      return t('demand:units.piece');
    },
    get bunch() {
      return t('demand:units.bunch');
    },
  },
  seasons: {
    get spring() {
      return t('demand:seasons.spring');
    },
    get summer() {
      return t('demand:seasons.summer');
    },
    get autumn() {
      return t('demand:seasons.autumn');
    },
    get winter() {
      return t('demand:seasons.winter');
    },
  },
  methods: {
    get 'open-field'() {
      return t('demand:methods.open-field');
    },
    get greenhouse() {
      return t('demand:methods.greenhouse');
    },
    get vertical() {
      return t('demand:methods.vertical');
    },
  },
  signal: {
    get title() {
      return t('demand:signal.title');
    },
    get lead() {
      return t('demand:signal.lead');
    },
    get by() {
      return t('demand:signal.by');
    },
    get byName() {
      return t('demand:signal.byName');
    },
    get byPoint() {
      return t('demand:signal.byPoint');
    },
    get country() {
      return t('demand:signal.country');
    },
    get city() {
      return t('demand:signal.city');
    },
    get radius() {
      return t('demand:signal.radius');
    },
    get weeks() {
      return t('demand:signal.weeks');
    },
    get submit() {
      return t('demand:signal.submit');
    },
    get busy() {
      return t('demand:signal.busy');
    },
    households: (n: number, suppressed: number) =>
      suppressed > 0
        ? `${t('demand:signal.households', { count: n })} ${t('demand:signal.suppressed', { count: suppressed })}`
        : t('demand:signal.households', { count: n }),
    columns: {
      get crop() {
        return t('demand:signal.columns.crop');
      },
      get households() {
        return t('demand:signal.columns.households');
      },
      get demand() {
        return t('demand:signal.columns.demand');
      },
      get supply() {
        return t('demand:signal.columns.supply');
      },
      get gap() {
        return t('demand:signal.columns.gap');
      },
    },
    chart: (crop: string) => t('demand:signal.chart', { crop }),
    chartSummary: (crop: string, demand: string, supply: string, gap: string) =>
      t('demand:signal.chartSummary', { crop, demand, supply, gap }),
    get week() {
      return t('demand:signal.week');
    },
    get demand() {
      return t('demand:signal.demand');
    },
    get supply() {
      return t('demand:signal.supply');
    },
    get none() {
      return t('demand:signal.none');
    },
  },
  recommend: {
    get title() {
      return t('demand:recommend.title');
    },
    get lead() {
      return t('demand:recommend.lead');
    },
    get area() {
      return t('demand:recommend.area');
    },
    get method() {
      return t('demand:recommend.method');
    },
    get startDate() {
      return t('demand:recommend.startDate');
    },
    get radius() {
      return t('demand:recommend.radius');
    },
    get submit() {
      return t('demand:recommend.submit');
    },
    get missingLocation() {
      return t('demand:recommend.missingLocation');
    },
    columns: {
      get rank() {
        return t('demand:recommend.columns.rank');
      },
      get crop() {
        return t('demand:recommend.columns.crop');
      },
      get harvest() {
        return t('demand:recommend.columns.harvest');
      },
      get yield() {
        return t('demand:recommend.columns.yield');
      },
      get unmet() {
        return t('demand:recommend.columns.unmet');
      },
      get revenue() {
        return t('demand:recommend.columns.revenue');
      },
      get reasons() {
        return t('demand:recommend.columns.reasons');
      },
    },
    get notSuitable() {
      return t('demand:recommend.notSuitable');
    },
    reason: cropReason,
    get none() {
      return t('demand:recommend.none');
    },
  },
  forecast: {
    get title() {
      return t('demand:forecast.title');
    },
    get lead() {
      return t('demand:forecast.lead');
    },
    get crop() {
      return t('demand:forecast.crop');
    },
    get region() {
      return t('demand:forecast.region');
    },
    get regionHint() {
      return t('demand:forecast.regionHint');
    },
    get weeks() {
      return t('demand:forecast.weeks');
    },
    get submit() {
      return t('demand:forecast.submit');
    },
    chart: (crop: string, region: string) => t('demand:forecast.chart', { crop, region }),
    get history() {
      return t('demand:forecast.history');
    },
    get forecast() {
      return t('demand:forecast.forecast');
    },
    get pi95() {
      return t('demand:forecast.pi95');
    },
    get pi80() {
      return t('demand:forecast.pi80');
    },
    get week() {
      return t('demand:forecast.week');
    },
    summary: (crop: string, next: string, low: string, high: string) =>
      t('demand:forecast.summary', { crop, next, low, high }),
    method: (method: string, weeks: number) =>
      method === 'holt'
        ? t('demand:forecast.methodHolt', { count: weeks })
        : t('demand:forecast.methodNaive', { count: weeks }),
    get backtest() {
      return t('demand:forecast.backtest');
    },
    backtestText: (points: number, mape: string, mase: string) =>
      t('demand:forecast.backtestText', { points, mape, mase }),
  },
  supply: {
    get title() {
      return t('demand:supply.title');
    },
    get lead() {
      return t('demand:supply.lead');
    },
    get commit() {
      return t('demand:supply.commit');
    },
    get crop() {
      return t('demand:supply.crop');
    },
    get quantity() {
      return t('demand:supply.quantity');
    },
    get unit() {
      return t('demand:supply.unit');
    },
    get from() {
      return t('demand:supply.from');
    },
    get to() {
      return t('demand:supply.to');
    },
    get price() {
      return t('demand:supply.price');
    },
    get organic() {
      return t('demand:supply.organic');
    },
    get submit() {
      return t('demand:supply.submit');
    },
    get busy() {
      return t('demand:supply.busy');
    },
    committed: (qty: string, crop: string) => t('demand:supply.committed', { qty, crop }),
    get missingLocation() {
      return t('demand:supply.missingLocation');
    },
    get match() {
      return t('demand:supply.match');
    },
    get matchCrop() {
      return t('demand:supply.matchCrop');
    },
    get anyCrop() {
      return t('demand:supply.anyCrop');
    },
    get maxDistance() {
      return t('demand:supply.maxDistance');
    },
    get matchSubmit() {
      return t('demand:supply.matchSubmit');
    },
    get matchBusy() {
      return t('demand:supply.matchBusy');
    },
    matched: (n: number, created: number) => t('demand:supply.matched', { count: n, created }),
    get noMatches() {
      return t('demand:supply.noMatches');
    },
    columns: {
      get crop() {
        return t('demand:supply.columns.crop');
      },
      get kg() {
        return t('demand:supply.columns.kg');
      },
      get distance() {
        return t('demand:supply.columns.distance');
      },
      get price() {
        return t('demand:supply.columns.price');
      },
      get household() {
        return t('demand:supply.columns.household');
      },
    },
    get hidden() {
      return t('demand:supply.hidden');
    },
    get aHousehold() {
      return t('demand:supply.aHousehold');
    },
    get householdId() {
      return t('demand:supply.householdId');
    },
    within: (km: string) => t('demand:supply.within', { km }),
    get mine() {
      return t('demand:supply.mine');
    },
    get mineLead() {
      return t('demand:supply.mineLead');
    },
    get noneYet() {
      return t('demand:supply.noneYet');
    },
    commitment: (crop: string, qty: string, unit: string) => t('demand:supply.commitment', { crop, qty, unit }),
    get window() {
      return t('demand:supply.window');
    },
    perUnit: (price: string, currency: string, unit: string) => t('demand:supply.perUnit', { price, currency, unit }),
    get where() {
      return t('demand:supply.where');
    },
    get taken() {
      return t('demand:supply.taken');
    },
    takenOf: (matched: string, total: string) => t('demand:supply.takenOf', { matched, total }),
    get organicYes() {
      return t('demand:supply.organicYes');
    },
    matchesOf: (crop: string) => t('demand:supply.matchesOf', { crop }),
    get noMatchYet() {
      return t('demand:supply.noMatchYet');
    },
    shownOf: (shown: number, total: number) => t('demand:supply.shownOf', { shown, count: total }),
    get pages() {
      return t('demand:supply.pages');
    },
  },
};
