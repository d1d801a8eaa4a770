import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/environment.json';
import type { Recommendation } from './api/environment';

registerEnglish('environment', english);

/**
 * A text whose key is made from the API's names (a category, a field's path, a choice), which the catalog's types
 * cannot check: a name the catalog does not know is shown as the API wrote it.
 */
export function lookup(key: string, fallback: string): string {
  return (t as (key: string, options: { defaultValue: string }) => string)(key, { defaultValue: fallback });
}

/** Every text of the environment pages, in one place. */
export const ENVIRONMENT = {
  panel: {
    get title() {
      return t('environment:panel.title');
    },
    get score() {
      return t('environment:panel.score');
    },
    outOf: (score: string) => t('environment:panel.outOf', { score }),
    get none() {
      return t('environment:panel.none');
    },
    ranges: (ranges: 'species' | 'fallback') => t(`environment:panel.ranges.${ranges}`),
    priority: (priority: 'high' | 'medium' | 'low') => t(`environment:panel.priorities.${priority}`),
    get recommendations() {
      return t('environment:panel.recommendations');
    },
    get noRecommendations() {
      return t('environment:panel.noRecommendations');
    },
    get record() {
      return t('environment:panel.record');
    },
    get temperature() {
      return t('environment:panel.temperature');
    },
    get humidity() {
      return t('environment:panel.humidity');
    },
    get submit() {
      return t('environment:panel.submit');
    },
    get details() {
      return t('environment:panel.details');
    },
    /** The advice the API names by its code (`soil.ph.too-high`), in the language shown (ADR 255). */
    advice: (code: Recommendation['code']) => t(`environment:advice.${code}`),
    /** The measured value beside its optimal range; numbers already written in the reader's language. */
    measured: (values: { measured: string; min: string; max: string; unit: string }) =>
      t('environment:panel.measured', values),
    optimal: (values: { min: string; max: string; unit: string }) => t('environment:panel.optimal', values),
    /** A unit of the advice's range: symbols as the API writes them, units with words in the reader's language. */
    unit: (unit: string) => lookup(`environment:panel.units.${unit}`, unit),
  },
  page: {
    title: (plant: string) => t('environment:page.title', { plant }),
    get lead() {
      return t('environment:page.lead');
    },
    get back() {
      return t('environment:page.back');
    },
    get current() {
      return t('environment:page.current');
    },
    get currentLead() {
      return t('environment:page.currentLead');
    },
    get nothing() {
      return t('environment:page.nothing');
    },
    get notRecorded() {
      return t('environment:page.notRecorded');
    },
    get history() {
      return t('environment:page.history');
    },
    get recordedAt() {
      return t('environment:page.recordedAt');
    },
    get categories() {
      return t('environment:page.categories');
    },
    get noHistory() {
      return t('environment:page.noHistory');
    },
    get newer() {
      return t('environment:page.newer');
    },
    get older() {
      return t('environment:page.older');
    },
    pageOf: (page: number, pages: number) => t('environment:page.pageOf', { page, pages }),
    get analysis() {
      return t('environment:page.analysis');
    },
  },
  edit: {
    get title() {
      return t('environment:edit.title');
    },
    get lead() {
      return t('environment:edit.lead');
    },
    get ownerOnly() {
      return t('environment:edit.ownerOnly');
    },
    get recordedAt() {
      return t('environment:edit.recordedAt');
    },
    /** The summary of a category's rarer values; `category` as written inside a sentence. */
    more: (category: string) => t('environment:edit.more', { category }),
    get notSaid() {
      return t('environment:edit.notSaid');
    },
    get yes() {
      return t('environment:edit.yes');
    },
    get no() {
      return t('environment:edit.no');
    },
    get listHint() {
      return t('environment:edit.listHint');
    },
    get submit() {
      return t('environment:edit.submit');
    },
    get busy() {
      return t('environment:edit.busy');
    },
    get nothingChanged() {
      return t('environment:edit.nothingChanged');
    },
    saved: (categories: string) => t('environment:edit.saved', { categories }),
  },
  similar: {
    get title() {
      return t('environment:similar.title');
    },
    lead: (compared: number) => t('environment:similar.lead', { count: compared }),
    get none() {
      return t('environment:similar.none');
    },
    get plant() {
      return t('environment:similar.plant');
    },
    get species() {
      return t('environment:similar.species');
    },
    get similarity() {
      return t('environment:similar.similarity');
    },
    similarityOf: (score: string) => t('environment:similar.similarityOf', { score }),
    get shared() {
      return t('environment:similar.shared');
    },
    get compare() {
      return t('environment:similar.compare');
    },
    compareWith: (name: string) => t('environment:similar.compareWith', { name }),
  },
  tabs: {
    get label() {
      return t('environment:tabs.label');
    },
    get compare() {
      return t('environment:tabs.compare');
    },
    get analysis() {
      return t('environment:tabs.analysis');
    },
  },
  compare: {
    get title() {
      return t('environment:compare.title');
    },
    get lead() {
      return t('environment:compare.lead');
    },
    get plantA() {
      return t('environment:compare.plantA');
    },
    get plantB() {
      return t('environment:compare.plantB');
    },
    get submit() {
      return t('environment:compare.submit');
    },
    get overall() {
      return t('environment:compare.overall');
    },
    outOf: (score: string) => t('environment:compare.outOf', { score }),
    get noOverlap() {
      return t('environment:compare.noOverlap');
    },
    get category() {
      return t('environment:compare.category');
    },
    weight: (weight: number) => t('environment:compare.weight', { weight }),
    get parameter() {
      return t('environment:compare.parameter');
    },
    get difference() {
      return t('environment:compare.difference');
    },
    get differenceIs() {
      return t('environment:compare.differenceIs');
    },
    get notBoth() {
      return t('environment:compare.notBoth');
    },
    get missing() {
      return t('environment:compare.missing');
    },
  },
  analysis: {
    get title() {
      return t('environment:analysis.title');
    },
    get lead() {
      return t('environment:analysis.lead');
    },
    get results() {
      return t('environment:analysis.results');
    },
    get species() {
      return t('environment:analysis.species');
    },
    get minSamples() {
      return t('environment:analysis.minSamples');
    },
    get submit() {
      return t('environment:analysis.submit');
    },
    summary: (plants: number, tests: number, skipped: number) =>
      t('environment:analysis.summary', {
        plants: t('environment:analysis.plants', { count: plants }),
        tests: t('environment:analysis.tests', { count: tests }),
        skipped: t('environment:analysis.skipped', { count: skipped }),
      }),
    get none() {
      return t('environment:analysis.none');
    },
    columns: {
      get species() {
        return t('environment:analysis.columns.species');
      },
      get condition() {
        return t('environment:analysis.columns.condition');
      },
      get outcome() {
        return t('environment:analysis.columns.outcome');
      },
      get n() {
        return t('environment:analysis.columns.n');
      },
      get r() {
        return t('environment:analysis.columns.r');
      },
      get ci() {
        return t('environment:analysis.columns.ci');
      },
      get p() {
        return t('environment:analysis.columns.p');
      },
      get q() {
        return t('environment:analysis.columns.q');
      },
      get significant() {
        return t('environment:analysis.columns.significant');
      },
    },
    interval: (low: string, high: string) => t('environment:analysis.interval', { low, high }),
    get yes() {
      return t('environment:analysis.yes');
    },
    get no() {
      return t('environment:analysis.no');
    },
    get explainTitle() {
      return t('environment:analysis.explainTitle');
    },
    /** How to read the table, a paragraph each. */
    get explain() {
      return [
        t('environment:analysis.explain.r'),
        t('environment:analysis.explain.p'),
        t('environment:analysis.explain.q'),
        t('environment:analysis.explain.cause'),
      ];
    },
    /** A condition or outcome by its API name (`climate.temperatureC`); an unknown one as it is. */
    condition: (name: string) => lookup(`environment:analysis.conditions.${name}`, name),
  },
  values: {
    get yes() {
      return t('environment:values.yes');
    },
    get no() {
      return t('environment:values.no');
    },
    withUnit: (label: string, unit: string) => t('environment:values.withUnit', { label, unit }),
  },
} as const;
