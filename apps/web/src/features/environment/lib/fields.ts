import type { components } from '@rootline/sdk';

/** The nine categories of a record as the API takes them. */
export type EnvironmentInput = Omit<
  components['schemas']['EnvironmentRecord'],
  'id' | 'plantId' | 'recordedAt' | 'recordedBy'
>;
export type Category = keyof EnvironmentInput;

/** One editable value of a category: where it sits in the record, how it is named and in which unit. */
export interface FieldSpec {
  /** Path inside the category, e.g. ['secondary', 'calciumPpm']. */
  path: readonly string[];
  label: string;
  unit?: string;
  kind: 'number' | 'integer' | 'choice' | 'text' | 'list' | 'yes-no';
  min?: number;
  max?: number;
  options?: readonly string[];
  /** Shown under "more values" to keep the form short. */
  more?: boolean;
}

const num = (key: string, label: string, unit: string | undefined, min: number, max: number, more?: boolean) =>
  ({ path: [key], label, kind: 'number', min, max, ...(unit ? { unit } : {}), ...(more ? { more } : {}) }) as const;
const nested = (group: string, key: string, label: string, unit: string, max: number) =>
  ({ path: [group, key], label, unit, kind: 'number', min: 0, max, more: true }) as const;
const choice = (key: string, label: string, options: readonly string[]) =>
  ({ path: [key], label, kind: 'choice', options }) as const;

/** Every category with its fields, in the order of the API's documentation (docs/environment.md). */
export const CATEGORIES: readonly { key: Category; title: string; fields: readonly FieldSpec[] }[] = [
  {
    key: 'soil',
    title: 'Soil',
    fields: [
      choice('type', 'Soil type', ['clay', 'loam', 'sand', 'silt', 'peat', 'chalk', 'potting-mix', 'soilless']),
      num('ph', 'Soil pH', undefined, 0, 14),
      { path: ['texture'], label: 'Texture', kind: 'text' },
      choice('drainage', 'Drainage', ['poor', 'moderate', 'good', 'excessive']),
      num('organicMatterPercent', 'Organic matter', '%', 0, 100),
      { path: ['amendments'], label: 'Amendments', kind: 'list' },
    ],
  },
  {
    key: 'nutrients',
    title: 'Nutrients',
    fields: [
      num('nitrogenPpm', 'Nitrogen (N)', 'ppm', 0, 10_000),
      num('phosphorusPpm', 'Phosphorus (P)', 'ppm', 0, 10_000),
      num('potassiumPpm', 'Potassium (K)', 'ppm', 0, 10_000),
      num('ecMsCm', 'Electrical conductivity (EC)', 'mS/cm', 0, 20),
      num('tdsPpm', 'Total dissolved solids', 'ppm', 0, 20_000),
      nested('secondary', 'calciumPpm', 'Calcium', 'ppm', 10_000),
      nested('secondary', 'magnesiumPpm', 'Magnesium', 'ppm', 10_000),
      nested('secondary', 'sulfurPpm', 'Sulfur', 'ppm', 10_000),
      nested('micronutrients', 'ironPpm', 'Iron', 'ppm', 1000),
      nested('micronutrients', 'manganesePpm', 'Manganese', 'ppm', 1000),
      nested('micronutrients', 'zincPpm', 'Zinc', 'ppm', 1000),
      nested('micronutrients', 'copperPpm', 'Copper', 'ppm', 1000),
      nested('micronutrients', 'boronPpm', 'Boron', 'ppm', 1000),
      nested('micronutrients', 'molybdenumPpm', 'Molybdenum', 'ppm', 1000),
    ],
  },
  {
    key: 'lighting',
    title: 'Lighting',
    fields: [
      choice('source', 'Light source', ['natural', 'artificial', 'mixed']),
      num('hoursPerDay', 'Light per day', 'hours', 0, 24),
      { path: ['spectrum'], label: 'Spectrum', kind: 'text' },
      num('ppfd', 'Light intensity (PPFD)', 'µmol/m²/s', 0, 3000),
      num('dli', 'Daily light integral (DLI)', 'mol/m²/day', 0, 100),
    ],
  },
  {
    key: 'climate',
    title: 'Climate',
    fields: [
      num('temperatureC', 'Temperature', '°C', -60, 60),
      num('humidityPercent', 'Relative humidity', '%', 0, 100),
      choice('airflow', 'Airflow', ['still', 'light', 'moderate', 'strong']),
      num('co2Ppm', 'CO2', 'ppm', 0, 10_000),
      { path: ['hardinessZone'], label: 'Hardiness zone', unit: 'USDA 1–13, a or b', kind: 'text' },
    ],
  },
  {
    key: 'location',
    title: 'Growing location',
    fields: [
      choice('setting', 'Setting', ['indoor', 'outdoor', 'greenhouse']),
      { path: ['details'], label: 'Details', kind: 'text' },
      { path: ['greenhouse', 'heated'], label: 'Greenhouse heated', kind: 'yes-no' },
      { path: ['greenhouse', 'ventilated'], label: 'Greenhouse ventilated', kind: 'yes-no' },
      { path: ['greenhouse', 'covering'], label: 'Greenhouse covering', kind: 'text' },
    ],
  },
  {
    key: 'container',
    title: 'Container',
    fields: [
      choice('type', 'Container type', ['pot', 'raised-bed', 'ground', 'grow-bag', 'hydroponic', 'hanging-basket']),
      choice('material', 'Material', ['plastic', 'terracotta', 'ceramic', 'wood', 'fabric', 'metal', 'concrete']),
      num('volumeLiters', 'Volume', 'L', 0, 100_000),
      { path: ['hasDrainage'], label: 'Drainage holes', kind: 'yes-no' },
    ],
  },
  {
    key: 'watering',
    title: 'Watering',
    fields: [
      choice('method', 'Method', ['hand', 'drip', 'sprinkler', 'bottom', 'self-watering', 'hydroponic', 'rain']),
      num('frequencyPerWeek', 'Waterings per week', 'per week', 0, 100),
      choice('source', 'Water source', ['tap', 'rain', 'well', 'filtered', 'distilled', 'reverse-osmosis', 'recycled']),
      num('ph', 'Water pH', undefined, 0, 14),
      num('tdsPpm', 'Water total dissolved solids', 'ppm', 0, 20_000),
      num('chlorinePpm', 'Chlorine', 'mg/L', 0, 50),
    ],
  },
  {
    key: 'surroundings',
    title: 'Surroundings',
    fields: [
      { path: ['companionPlants'], label: 'Companion plants', kind: 'list' },
      { path: ['pests'], label: 'Pests seen', kind: 'list' },
      { path: ['diseases'], label: 'Diseases seen', kind: 'list' },
      { path: ['ecosystem'], label: 'Ecosystem', kind: 'text' },
    ],
  },
  {
    key: 'growth',
    title: 'Growth',
    fields: [
      num('heightCm', 'Height', 'cm', 0, 20_000),
      num('stemDiameterMm', 'Stem diameter', 'mm', 0, 5000),
      { path: ['leafCount'], label: 'Leaves', kind: 'integer', min: 0, max: 1_000_000 },
      num('growthRateCmPerWeek', 'Growth rate', 'cm/week', 0, 500),
      num('healthScore', 'Your health rating', '0–100', 0, 100),
      choice('vigor', 'Vigor', ['poor', 'fair', 'good', 'excellent']),
    ],
  },
];

/** The label with its unit, as every page shows it: "Temperature (°C)". */
export function labelWithUnit(field: FieldSpec): string {
  return field.unit ? `${field.label} (${field.unit})` : field.label;
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

/** A recorded value as a person reads it (lists joined by commas, yes/no). */
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
