import type { components } from '@rootline/sdk';
import { formatNumber } from '../../../lib/format';
import { ENVIRONMENT, lookup } from '../strings';

/** The nine categories of a record as the API takes them. */
export type EnvironmentInput = Omit<
  components['schemas']['EnvironmentRecord'],
  'id' | 'plantId' | 'recordedAt' | 'recordedBy'
>;
export type Category = keyof EnvironmentInput;

/** A unit written in words, so in the reader's language (`hours`, `per week`); symbols (`°C`, `ppm`) are not. */
type UnitWord = 'hours' | 'perWeek' | 'dli' | 'cmPerWeek' | 'hardiness' | 'score';

/** One editable value of a category: where it sits in the record, how it is named and in which unit. */
export interface FieldSpec {
  /** Path inside the category, e.g. ['secondary', 'calciumPpm']. */
  path: readonly string[];
  /** The name, in the reader's language. */
  readonly label: string;
  /** The unit, in the reader's language; undefined for a value without one (pH). */
  readonly unit: string | undefined;
  kind: 'number' | 'integer' | 'choice' | 'text' | 'list' | 'yes-no';
  min?: number;
  max?: number;
  options?: readonly string[];
  /** Shown under "more values" to keep the form short. */
  more?: boolean;
}

/** A field as written below: its unit a symbol or, between braces, a word to translate. */
type FieldDef = Omit<FieldSpec, 'label' | 'unit'> & { unit?: string | { word: UnitWord } };

const num = (key: string, unit: FieldDef['unit'], min: number, max: number): FieldDef => ({
  path: [key],
  kind: 'number',
  min,
  max,
  ...(unit ? { unit } : {}),
});
const nested = (group: string, key: string, unit: string, max: number): FieldDef => ({
  path: [group, key],
  unit,
  kind: 'number',
  min: 0,
  max,
  more: true,
});
const choice = (key: string, options: readonly string[]): FieldDef => ({ path: [key], kind: 'choice', options });
const word = (w: UnitWord) => ({ word: w });

/** A category with its fields named in the reader's language (read when shown, so a change of language follows). */
function category(key: Category, defs: readonly FieldDef[]) {
  return {
    key,
    /** The category's heading ("Soil"). */
    get title() {
      return lookup(`environment:categories.${key}.title`, key);
    },
    /** The category inside a sentence ("Saved: soil, climate."). */
    get inText() {
      return lookup(`environment:categories.${key}.inText`, key);
    },
    fields: defs.map((def): FieldSpec => {
      const { unit, ...rest } = def;
      return {
        ...rest,
        get label() {
          return lookup(`environment:fields.${key}.${def.path.join('.')}`, def.path.join(' '));
        },
        get unit() {
          return typeof unit === 'object' ? lookup(`environment:units.${unit.word}`, unit.word) : unit;
        },
      };
    }),
  };
}

/** Every category with its fields, in the order of the API's documentation (docs/environment.md). */
export const CATEGORIES: readonly {
  key: Category;
  readonly title: string;
  readonly inText: string;
  fields: readonly FieldSpec[];
}[] = [
  category('soil', [
    choice('type', ['clay', 'loam', 'sand', 'silt', 'peat', 'chalk', 'potting-mix', 'soilless']),
    num('ph', undefined, 0, 14),
    { path: ['texture'], kind: 'text' },
    choice('drainage', ['poor', 'moderate', 'good', 'excessive']),
    num('organicMatterPercent', '%', 0, 100),
    { path: ['amendments'], kind: 'list' },
  ]),
  category('nutrients', [
    num('nitrogenPpm', 'ppm', 0, 10_000),
    num('phosphorusPpm', 'ppm', 0, 10_000),
    num('potassiumPpm', 'ppm', 0, 10_000),
    num('ecMsCm', 'mS/cm', 0, 20),
    num('tdsPpm', 'ppm', 0, 20_000),
    nested('secondary', 'calciumPpm', 'ppm', 10_000),
    nested('secondary', 'magnesiumPpm', 'ppm', 10_000),
    nested('secondary', 'sulfurPpm', 'ppm', 10_000),
    nested('micronutrients', 'ironPpm', 'ppm', 1000),
    nested('micronutrients', 'manganesePpm', 'ppm', 1000),
    nested('micronutrients', 'zincPpm', 'ppm', 1000),
    nested('micronutrients', 'copperPpm', 'ppm', 1000),
    nested('micronutrients', 'boronPpm', 'ppm', 1000),
    nested('micronutrients', 'molybdenumPpm', 'ppm', 1000),
  ]),
  category('lighting', [
    choice('source', ['natural', 'artificial', 'mixed']),
    num('hoursPerDay', word('hours'), 0, 24),
    { path: ['spectrum'], kind: 'text' },
    num('ppfd', 'µmol/m²/s', 0, 3000),
    num('dli', word('dli'), 0, 100),
  ]),
  category('climate', [
    num('temperatureC', '°C', -60, 60),
    num('humidityPercent', '%', 0, 100),
    choice('airflow', ['still', 'light', 'moderate', 'strong']),
    num('co2Ppm', 'ppm', 0, 10_000),
    { path: ['hardinessZone'], unit: word('hardiness'), kind: 'text' },
  ]),
  category('location', [
    choice('setting', ['indoor', 'outdoor', 'greenhouse']),
    { path: ['details'], kind: 'text' },
    { path: ['greenhouse', 'heated'], kind: 'yes-no' },
    { path: ['greenhouse', 'ventilated'], kind: 'yes-no' },
    { path: ['greenhouse', 'covering'], kind: 'text' },
  ]),
  category('container', [
    choice('type', ['pot', 'raised-bed', 'ground', 'grow-bag', 'hydroponic', 'hanging-basket']),
    choice('material', ['plastic', 'terracotta', 'ceramic', 'wood', 'fabric', 'metal', 'concrete']),
    num('volumeLiters', 'L', 0, 100_000),
    { path: ['hasDrainage'], kind: 'yes-no' },
  ]),
  category('watering', [
    choice('method', ['hand', 'drip', 'sprinkler', 'bottom', 'self-watering', 'hydroponic', 'rain']),
    num('frequencyPerWeek', word('perWeek'), 0, 100),
    choice('source', ['tap', 'rain', 'well', 'filtered', 'distilled', 'reverse-osmosis', 'recycled']),
    num('ph', undefined, 0, 14),
    num('tdsPpm', 'ppm', 0, 20_000),
    num('chlorinePpm', 'mg/L', 0, 50),
  ]),
  category('surroundings', [
    { path: ['companionPlants'], kind: 'list' },
    { path: ['pests'], kind: 'list' },
    { path: ['diseases'], kind: 'list' },
    { path: ['ecosystem'], kind: 'text' },
  ]),
  category('growth', [
    num('heightCm', 'cm', 0, 20_000),
    num('stemDiameterMm', 'mm', 0, 5000),
    { path: ['leafCount'], kind: 'integer', min: 0, max: 1_000_000 },
    num('growthRateCmPerWeek', word('cmPerWeek'), 0, 500),
    num('healthScore', word('score'), 0, 100),
    choice('vigor', ['poor', 'fair', 'good', 'excellent']),
  ]),
];

/** The label with its unit, as every page shows it: "Temperature (°C)". */
export function labelWithUnit(field: FieldSpec): string {
  return field.unit ? ENVIRONMENT.values.withUnit(field.label, field.unit) : field.label;
}

/** A choice of a field in the reader's language ("potting-mix" → "potting mix"). */
export function optionLabel(category: Category, field: FieldSpec, option: string): string {
  return lookup(`environment:options.${category}.${field.path.join('.')}.${option}`, option.replace(/-/g, ' '));
}

/**
 * A recorded value as a person reads it, in their language: numbers as the language writes them, choices and yes/no
 * translated, lists joined by commas. Empty when not recorded.
 */
export function readableValue(category: Category, field: FieldSpec, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return formatNumber(value, 2);
  if (typeof value === 'boolean') return value ? ENVIRONMENT.values.yes : ENVIRONMENT.values.no;
  if (field.kind === 'choice' && typeof value === 'string') return optionLabel(category, field, value);
  return displayValue(value);
}

/** The form's text for each field of one category (empty when not recorded). */
export type CategoryForm = Record<string, string>;

const keyOf = (field: FieldSpec) => field.path.join('.');

/** The value at `path` inside a category (undefined when absent). */
export function valueAt(object: unknown, path: readonly string[]): unknown {
  let at = object;
  for (const key of path) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/** A recorded value as the form holds it (lists joined by commas, yes/no, choices by their code). */
export function displayValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** A category as the form shows it. */
export function toForm(spec: { fields: readonly FieldSpec[] }, category: unknown): CategoryForm {
  return Object.fromEntries(spec.fields.map((f) => [keyOf(f), displayValue(valueAt(category, f.path))]));
}

/**
 * The category as the API takes it, from the form; values the form does not edit (fertilizer applications) are
 * kept from the current record, since a category is replaced whole. Empty when everything was cleared.
 */
export function fromForm(
  spec: { fields: readonly FieldSpec[] },
  form: CategoryForm,
  current: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of spec.fields) {
    const text = (form[keyOf(field)] ?? '').trim();
    if (text === '') continue;
    let value: unknown = text;
    if (field.kind === 'number' || field.kind === 'integer') value = Number(text);
    else if (field.kind === 'yes-no') value = text === 'yes';
    else if (field.kind === 'list')
      value = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    let at = out;
    for (const key of field.path.slice(0, -1)) {
      at[key] ??= {};
      at = at[key] as Record<string, unknown>;
    }
    at[field.path.at(-1) as string] = value;
  }
  const edited = new Set(spec.fields.map((f) => f.path[0]));
  for (const [key, value] of Object.entries(current ?? {})) if (!edited.has(key)) out[key] = value;
  return out;
}

/** Whether the form differs from the category as recorded. */
export function changed(spec: { fields: readonly FieldSpec[] }, form: CategoryForm, current: unknown): boolean {
  const before = toForm(spec, current);
  return spec.fields.some((f) => (form[keyOf(f)] ?? '').trim() !== before[keyOf(f)]);
}

/** The form key of a field within its category. */
export { keyOf };

/** The name of a field's input, also the end of the API's field path (`body/climate/temperatureC`). */
export function fieldName(category: Category, field: FieldSpec): string {
  return `${category}/${field.path.join('/')}`;
}
