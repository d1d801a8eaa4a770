import type { EnvironmentCategory, EnvironmentData } from '@rootline/contracts/environment';
import {
  type AdviceKind,
  adviceCode,
  type Recommendation,
  type ScoredParameter,
} from '@rootline/contracts/environment-insights';
import { parameterScore, valueAt } from './health.js';
import { rangesFor, SCORED_PARAMETERS, TOLERANCE, UNITS } from './ranges.js';

/**
 * What to do when a parameter is too low, too high or never measured: the English sentence of each advice code
 * (`soil.ph.too-high`), which the web app words in its reader's language from the code (ADR 255).
 */
const ADVICE: Record<ScoredParameter, Record<AdviceKind, string>> = {
  'soil.ph': {
    'too-low': 'Raise the soil pH: work in garden lime (calcium carbonate) and re-test after a few weeks',
    'too-high': 'Lower the soil pH: add elemental sulfur or an acidic mulch (pine needles, peat) and re-test',
    unmeasured: 'Measure the soil pH with a kit or meter',
  },
  'climate.temperatureC': {
    'too-low': 'Warm the plant: move it to a warmer spot, add a cover, or heat the space',
    'too-high': 'Cool the plant: give shade in the hottest hours and ventilate',
    unmeasured: 'Record the air temperature near the plant',
  },
  'climate.humidityPercent': {
    'too-low': 'Raise humidity: group plants, mulch, or use a humidifier or tray of water',
    'too-high': 'Lower humidity: improve airflow and ventilation, water in the morning',
    unmeasured: 'Record the relative humidity near the plant',
  },
  'lighting.dli': {
    'too-low': 'Give more light: a sunnier place or supplemental grow lights',
    'too-high': 'Reduce light: shade cloth or a less exposed place',
    unmeasured: 'Estimate the daily light integral (PPFD × hours × 0.0036)',
  },
  'lighting.hoursPerDay': {
    'too-low': 'Lengthen the light period, e.g. with a timer on grow lights',
    'too-high': 'Shorten the light period: give the plant a dark period',
    unmeasured: 'Record the hours of light per day',
  },
  'nutrients.ecMsCm': {
    'too-low': 'Feed more: raise the nutrient concentration or fertilise more often',
    'too-high': 'Dilute: flush with plain water and lower the nutrient concentration',
    unmeasured: 'Measure the EC of the root-zone solution or runoff',
  },
  'watering.ph': {
    'too-low': 'Raise the water pH (pH-up solution, or let rainwater pass over limestone)',
    'too-high': 'Lower the water pH (pH-down solution, or rainwater instead of hard tap water)',
    unmeasured: 'Measure the pH of the irrigation water',
  },
};

const ORDER = { high: 0, medium: 1, low: 2 } as const;

/**
 * Advice for a plant's current environment: every scored parameter outside its species' range (high priority when
 * it scores below 50, medium otherwise) and every scored parameter never measured (low). Highest priority first,
 * then the lowest score, then by parameter name.
 */
export function recommend(species: string | null, env: EnvironmentData): Recommendation[] {
  const { ranges, kind } = rangesFor(species);
  const whose = kind === 'species' ? `for ${ranges.commonName}` : 'for a species without its own ranges (fallback)';
  const out: (Recommendation & { score: number })[] = [];
  for (const parameter of SCORED_PARAMETERS) {
    const range = ranges.ranges[parameter];
    const target = { ...range, unit: UNITS[parameter] };
    const category = parameter.split('.')[0] as EnvironmentCategory;
    const text = ADVICE[parameter];
    const value = valueAt(env, parameter);
    const rangeText = `${range.min}–${range.max} ${UNITS[parameter]} ${whose} (${ranges.source})`;
    if (value === undefined) {
      out.push({
        priority: 'low',
        category,
        parameter,
        measured: null,
        target,
        code: adviceCode(parameter, 'unmeasured'),
        params: { parameter, kind: 'unmeasured', measured: null, min: range.min, max: range.max, unit: target.unit },
        advice: text.unmeasured,
        reason: `Not recorded yet; the optimal range is ${rangeText}`,
        score: 100,
      });
      continue;
    }
    if (value >= range.min && value <= range.max) continue;
    const score = parameterScore(value, range, TOLERANCE[parameter]);
    const low = value < range.min;
    const kind: AdviceKind = low ? 'too-low' : 'too-high';
    out.push({
      priority: score < 50 ? 'high' : 'medium',
      category,
      parameter,
      measured: value,
      target,
      code: adviceCode(parameter, kind),
      params: { parameter, kind, measured: value, min: range.min, max: range.max, unit: target.unit },
      advice: text[kind],
      reason: `${value} ${UNITS[parameter]} is ${low ? 'below' : 'above'} the optimal range ${rangeText}`,
      score,
    });
  }
  out.sort(
    (a, b) => ORDER[a.priority] - ORDER[b.priority] || a.score - b.score || a.parameter.localeCompare(b.parameter),
  );
  return out.map(({ score: _score, ...r }) => r);
}
