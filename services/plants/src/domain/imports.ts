import { Location } from '@rootline/contracts/common';
import {
  IMPORT_LIMITS,
  type ImportKind,
  type ImportProblem,
  type ImportProblemReason,
  LIST_SEPARATOR,
  PLANT_COLUMNS,
  SEED_LOT_COLUMNS,
} from '@rootline/contracts/imports';
import { PlantInput, PRIVACY_LEVELS, StringEnum } from '@rootline/contracts/plants';
import { SeedLotCreateInput } from '@rootline/contracts/seed-lots';
import { Type } from '@sinclair/typebox';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { cropKey } from './seed-lots.js';

/** The columns of each kind, in export order. */
export const COLUMNS: Record<ImportKind, readonly string[]> = { 'seed-lots': SEED_LOT_COLUMNS, plants: PLANT_COLUMNS };

/** The fields a row of each kind cannot do without. */
const REQUIRED: Record<ImportKind, readonly string[]> = {
  'seed-lots': ['key', 'crop', 'harvestYear', 'quantityAmount', 'quantityUnit'],
  plants: ['key', 'commonName', 'latitude', 'longitude'],
};

/** Fields read as numbers; the integers among them. */
const NUMBERS = new Set([
  'harvestYear',
  'quantityAmount',
  'storageTemperatureC',
  'storageHumidityPct',
  'latitude',
  'longitude',
]);
const INTEGERS = new Set(['harvestYear']);

/** A problem before its line is known (the row's reader adds it). */
export type RowProblem = Omit<ImportProblem, 'line'>;

/** How the file's columns are read: the index of each field's column and its header. */
export interface Columns {
  index: Record<string, number>;
  header: Record<string, string>;
  /** Header → field, as applied (the job shows it). */
  applied: Record<string, string>;
}

function problem(reason: ImportProblemReason, message: string, column: string | null, field: string | null) {
  return { column, field, reason, message };
}

/**
 * Which column holds which field. A mapping entry names a header of the file and a field of the kind; a header not
 * mapped is its field's when it is named like one; `keyColumn` names the key's header. Problems here concern the
 * whole file (its line 1): a header the mapping names that the file lacks, a field of another kind, a required
 * field no column holds, a field two columns hold.
 */
export function resolveColumns(
  kind: ImportKind,
  headers: readonly string[],
  mapping: Record<string, string>,
  keyColumn: string | undefined,
): { columns: Columns; problems: RowProblem[] } {
  const fields = new Set(COLUMNS[kind]);
  const problems: RowProblem[] = [];
  const applied: Record<string, string> = {};
  const trimmed = headers.map((h) => h.trim());
  const wanted = { ...mapping, ...(keyColumn ? { [keyColumn]: 'key' } : {}) };
  for (const [header, field] of Object.entries(wanted)) {
    if (!trimmed.includes(header.trim())) {
      problems.push(problem('unknown-column', `The file has no column "${header}"`, header, field));
    } else if (!fields.has(field)) {
      problems.push(problem('unknown-field', `"${field}" is not a field of ${kind}`, header, field));
    } else applied[header.trim()] = field;
  }
  const mappedFields = new Set(Object.values(applied));
  for (const h of trimmed) {
    if (!(h in applied) && !(h in wanted) && fields.has(h) && !mappedFields.has(h)) applied[h] = h;
  }
  const index: Record<string, number> = {};
  const header: Record<string, string> = {};
  for (const [h, field] of Object.entries(applied)) {
    if (field in index) {
      problems.push(problem('duplicate-key', `Two columns hold ${field}: "${header[field]}" and "${h}"`, h, field));
      continue;
    }
    index[field] = trimmed.indexOf(h);
    header[field] = h;
  }
  for (const field of REQUIRED[kind]) {
    if (!(field in index)) problems.push(problem('missing-column', `No column holds ${field}`, null, field));
  }
  return { columns: { index, header, applied }, problems };
}

/** The values of a seed-lot row, as stored and exported. */
export interface SeedLotValues {
  crop: string;
  variety: string | null;
  harvestYear: number;
  quantityAmount: number;
  quantityUnit: string;
  parentPlantIds: string[];
  storagePlace: string | null;
  storageTemperatureC: number | null;
  storageHumidityPct: number | null;
  storageContainer: string | null;
  notes: string | null;
}

/** The values of a plant row. */
export interface PlantValues {
  commonName: string;
  scientificName: string | null;
  latitude: number;
  longitude: number;
  city: string | null;
  country: string | null;
  privacyLevel: string;
}

export type RowValues = SeedLotValues | PlantValues;

/** A row read: its key and values, or its problems. */
export type ReadRow<V> = { key: string; values: V; problems: [] } | { key: string | null; problems: RowProblem[] };

/** The fields of `POST /api/plants/register` a row gives (the owner is the import's). */
const PlantRow = Type.Object({
  commonName: PlantInput.properties.commonName,
  scientificName: PlantInput.properties.scientificName,
  location: Location,
  privacyLevel: StringEnum(PRIVACY_LEVELS),
});

/** The field of a row that a schema path names. */
const PATH_FIELD: Record<string, string> = {
  '/quantity/amount': 'quantityAmount',
  '/quantity/unit': 'quantityUnit',
  '/storage/place': 'storagePlace',
  '/storage/temperatureC': 'storageTemperatureC',
  '/storage/humidityPct': 'storageHumidityPct',
  '/storage/container': 'storageContainer',
  '/location/latitude': 'latitude',
  '/location/longitude': 'longitude',
  '/location/city': 'city',
  '/location/country': 'country',
};

function fieldOfPath(path: string): string {
  const field = PATH_FIELD[path] ?? path.split('/')[1] ?? '';
  return field;
}

function reasonOf(e: ValueError): ImportProblemReason {
  switch (e.type) {
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.ArrayMaxItems:
      return 'out-of-range';
    case ValueErrorType.StringMaxLength:
      return 'too-long';
    case ValueErrorType.StringMinLength:
      return 'required';
    case ValueErrorType.Integer:
      return 'not-an-integer';
    case ValueErrorType.ArrayUniqueItems:
      return 'duplicate-key';
    default:
      return e.schema.enum ? 'not-allowed' : 'malformed';
  }
}

/** The cells of one row by field (empty cells left out), and the numbers' problems. */
function cellsOf(
  kind: ImportKind,
  record: readonly string[],
  columns: Columns,
): { cells: Record<string, string>; numbers: Record<string, number>; problems: RowProblem[] } {
  const cells: Record<string, string> = {};
  const numbers: Record<string, number> = {};
  const problems: RowProblem[] = [];
  for (const field of COLUMNS[kind]) {
    const at = columns.index[field];
    if (at === undefined) continue;
    const raw = record[at] ?? '';
    const cell = NUMBERS.has(field) || field === 'key' || field === 'quantityUnit' ? raw.trim() : raw;
    if (cell.trim() === '') continue;
    cells[field] = cell;
    if (NUMBERS.has(field)) {
      const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(cell) ? Number(cell) : Number.NaN;
      const header = columns.header[field] ?? field;
      if (!Number.isFinite(n)) problems.push(problem('not-a-number', `"${cell}" is not a number`, header, field));
      else if (INTEGERS.has(field) && !Number.isInteger(n))
        problems.push(problem('not-an-integer', `"${cell}" is not a whole number`, header, field));
      else numbers[field] = n;
    }
  }
  for (const field of REQUIRED[kind]) {
    if (!(field in cells)) {
      problems.push(problem('required', `${field} is required`, columns.header[field] ?? null, field));
    }
  }
  return { cells, numbers, problems };
}

function schemaProblems(schema: Parameters<typeof Value.Errors>[0], input: unknown, columns: Columns): RowProblem[] {
  const seen = new Set<string>();
  const out: RowProblem[] = [];
  for (const e of Value.Errors(schema, input)) {
    const field = fieldOfPath(e.path);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push(problem(reasonOf(e), `${field}: ${e.message}`, columns.header[field] ?? null, field));
  }
  return out;
}

function keyOf(cells: Record<string, string>, columns: Columns): { key: string | null; problems: RowProblem[] } {
  const key = cells.key ?? null;
  if (key !== null && key.length > IMPORT_LIMITS.keyMaxLength) {
    return {
      key: null,
      problems: [
        problem(
          'too-long',
          `The key is longer than ${IMPORT_LIMITS.keyMaxLength} characters`,
          columns.header.key ?? null,
          'key',
        ),
      ],
    };
  }
  return { key, problems: [] };
}

/** A seed-lot row read against the rules of `POST /api/seed-lots` (the contract's schema), or its problems. */
export function readSeedLotRow(record: readonly string[], columns: Columns): ReadRow<SeedLotValues> {
  const { cells, numbers, problems } = cellsOf('seed-lots', record, columns);
  const key = keyOf(cells, columns);
  problems.push(...key.problems);
  const parents = (cells.parentPlantIds ?? '')
    .split(LIST_SEPARATOR)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const storage = {
    ...(cells.storagePlace === undefined ? {} : { place: cells.storagePlace }),
    ...(numbers.storageTemperatureC === undefined ? {} : { temperatureC: numbers.storageTemperatureC }),
    ...(numbers.storageHumidityPct === undefined ? {} : { humidityPct: numbers.storageHumidityPct }),
    ...(cells.storageContainer === undefined ? {} : { container: cells.storageContainer }),
  };
  const input = {
    crop: cells.crop ?? '',
    ...(cells.variety === undefined ? {} : { variety: cells.variety }),
    parentPlantIds: parents,
    harvestYear: numbers.harvestYear ?? SEED_LOT_YEARS_FALLBACK,
    quantity: { amount: numbers.quantityAmount ?? 0, unit: cells.quantityUnit ?? 'seeds' },
    ...(Object.keys(storage).length === 0 ? {} : { storage }),
    ...(cells.notes === undefined ? {} : { notes: cells.notes }),
  };
  const known = new Set(problems.map((p) => p.field));
  problems.push(...schemaProblems(SeedLotCreateInput, input, columns).filter((p) => !known.has(p.field)));
  if (problems.length > 0 || key.key === null) return { key: key.key, problems };
  return {
    key: key.key,
    problems: [],
    values: {
      crop: input.crop.trim(),
      variety: input.variety?.trim() ?? null,
      harvestYear: input.harvestYear,
      quantityAmount: input.quantity.amount,
      quantityUnit: input.quantity.unit,
      parentPlantIds: parents,
      storagePlace: storage.place ?? null,
      storageTemperatureC: storage.temperatureC ?? null,
      storageHumidityPct: storage.humidityPct ?? null,
      storageContainer: storage.container ?? null,
      notes: input.notes ?? null,
    },
  };
}

/** Stands in for a missing year while the rest of the row is checked (the missing cell is reported itself). */
const SEED_LOT_YEARS_FALLBACK = 2000;

/** A plant row read against the rules of `POST /api/plants/register`, or its problems. */
export function readPlantRow(record: readonly string[], columns: Columns): ReadRow<PlantValues> {
  const { cells, numbers, problems } = cellsOf('plants', record, columns);
  const key = keyOf(cells, columns);
  problems.push(...key.problems);
  const input = {
    commonName: cells.commonName ?? '',
    ...(cells.scientificName === undefined ? {} : { scientificName: cells.scientificName }),
    location: {
      latitude: numbers.latitude ?? 0,
      longitude: numbers.longitude ?? 0,
      ...(cells.city === undefined ? {} : { city: cells.city }),
      ...(cells.country === undefined ? {} : { country: cells.country }),
    },
    privacyLevel: cells.privacyLevel?.trim() ?? 'exact',
  };
  const known = new Set(problems.map((p) => p.field));
  problems.push(...schemaProblems(PlantRow, input, columns).filter((p) => !known.has(p.field)));
  if (problems.length > 0 || key.key === null) return { key: key.key, problems };
  return {
    key: key.key,
    problems: [],
    values: {
      commonName: input.commonName.trim(),
      scientificName: input.scientificName?.trim() ?? null,
      latitude: input.location.latitude,
      longitude: input.location.longitude,
      city: input.location.city ?? null,
      country: input.location.country ?? null,
      privacyLevel: input.privacyLevel,
    },
  };
}

/** The values of a stored lot as a row has them, to tell an unchanged row from a conflicting one. */
export function sameSeedLot(a: SeedLotValues, b: SeedLotValues): boolean {
  return (
    cropKey(a.crop) === cropKey(b.crop) &&
    a.crop === b.crop &&
    a.variety === b.variety &&
    a.harvestYear === b.harvestYear &&
    a.quantityAmount === b.quantityAmount &&
    a.quantityUnit === b.quantityUnit &&
    a.parentPlantIds.join(LIST_SEPARATOR) === b.parentPlantIds.join(LIST_SEPARATOR) &&
    a.storagePlace === b.storagePlace &&
    a.storageTemperatureC === b.storageTemperatureC &&
    a.storageHumidityPct === b.storageHumidityPct &&
    a.storageContainer === b.storageContainer &&
    a.notes === b.notes
  );
}

/** The cells of an exported row, in the kind's column order: numbers as JavaScript writes them, empty for null. */
export function exportCells(kind: ImportKind, key: string, values: RowValues): string[] {
  const v = values as unknown as Record<string, unknown>;
  return COLUMNS[kind].map((field) => {
    if (field === 'key') return key;
    const value = v[field];
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) return value.join(LIST_SEPARATOR);
    return String(value);
  });
}
