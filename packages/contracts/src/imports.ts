import { type Static, Type } from '@sinclair/typebox';
import { PrefixedId, Text, Timestamp } from './common.js';
import { defineSubject, Named } from './define.js';
import { PageQuery, Pagination } from './envelope.js';
import { StringEnum } from './plants.js';

/**
 * CSV import and export of an inventory (docs/imports.md, ADR 297–299): a file of seed lots or plants, uploaded to
 * storage by the gateway and read by the plants service row by row as a job; a dry run checks every row and writes
 * nothing; a key per row makes a re-import create nothing twice. Exports answer the same columns.
 */

export const ImportId = PrefixedId('imp', 'Import job identifier');

export const IMPORT_KINDS = ['seed-lots', 'plants'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The fields of a seed-lot row, in the order an export writes them (its header is these names). */
export const SEED_LOT_COLUMNS = [
  'key',
  'crop',
  'variety',
  'harvestYear',
  'quantityAmount',
  'quantityUnit',
  'parentPlantIds',
  'storagePlace',
  'storageTemperatureC',
  'storageHumidityPct',
  'storageContainer',
  'notes',
] as const;
export type SeedLotColumn = (typeof SEED_LOT_COLUMNS)[number];

/** The fields of a plant row, in the order an export writes them. */
export const PLANT_COLUMNS = [
  'key',
  'commonName',
  'scientificName',
  'latitude',
  'longitude',
  'city',
  'country',
  'privacyLevel',
] as const;
export type PlantColumn = (typeof PLANT_COLUMNS)[number];

/** Every field a mapping may name. */
export const IMPORT_FIELDS = [...new Set<string>([...SEED_LOT_COLUMNS, ...PLANT_COLUMNS])] as readonly string[];

/** Parent plant ids in one cell are separated by this character. */
export const LIST_SEPARATOR = ';';

export const IMPORT_LIMITS = {
  /** The largest file an import takes (413 PAYLOAD_TOO_LARGE beyond): about 600,000 seed-lot rows. */
  maxBytes: 64 * 1024 * 1024,
  /** The most rows of one file. */
  maxRows: 500_000,
  /** The problems kept of one import; the counts go on past it. */
  maxProblems: 10_000,
  /** Rows checked and written together: one transaction each. */
  batchRows: 1000,
  /** The longest key. */
  keyMaxLength: 200,
} as const;

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** Why a row (or the file) was refused. */
export const IMPORT_PROBLEM_REASONS = [
  'required',
  'not-a-number',
  'not-an-integer',
  'out-of-range',
  'too-long',
  'not-allowed',
  'unknown-plant',
  'duplicate-key',
  'key-conflict',
  'unknown-column',
  'unknown-field',
  'missing-column',
  'malformed',
  'too-many-rows',
] as const;
export type ImportProblemReason = (typeof IMPORT_PROBLEM_REASONS)[number];

const Header = Text({ minLength: 1, maxLength: 200, description: 'A column header of the file, as written' });

export const ImportMapping = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), StringEnum(IMPORT_FIELDS), {
  description:
    'CSV header → field. Headers left out are read as the field of the same name when there is one and ignored ' +
    'otherwise; an empty mapping reads a file in the export’s shape as it is.',
  maxProperties: 50,
  examples: [{ Crop: 'crop', Year: 'harvestYear', Seeds: 'quantityAmount', Unit: 'quantityUnit', Ref: 'key' }],
});
export type ImportMapping = Static<typeof ImportMapping>;

export const ImportOptions = Type.Object(
  {
    kind: StringEnum(IMPORT_KINDS, { description: 'What each row records' }),
    mapping: Type.Optional(ImportMapping),
    keyColumn: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 200,
        description:
          'The header of the column holding each row’s key (default `key`, or the header mapped to `key`): a row ' +
          'whose key was imported before is unchanged, never created twice',
      }),
    ),
    dryRun: Type.Optional(Type.Boolean({ description: 'Check every row and report, writing nothing', default: false })),
  },
  { additionalProperties: false },
);
export type ImportOptions = Static<typeof ImportOptions>;

export const ImportProblem = Named(
  'ImportProblem',
  Type.Object({
    line: Type.Integer({ minimum: 1, description: 'The line of the file the row is on (the header is line 1)' }),
    column: Type.Union([Type.String(), Type.Null()], { description: 'The header of the cell, null for the row' }),
    field: Type.Union([Type.String(), Type.Null()], { description: 'The field the cell maps to' }),
    reason: StringEnum(IMPORT_PROBLEM_REASONS),
    message: Type.String({ description: 'The problem in English; `reason` is the code to word it by' }),
  }),
);
export type ImportProblem = Static<typeof ImportProblem>;

export const ImportCounts = Type.Object({
  created: Type.Integer({ minimum: 0, description: 'Rows recorded (in a dry run: that would be)' }),
  unchanged: Type.Integer({ minimum: 0, description: 'Rows whose key names a record with the same values' }),
  failed: Type.Integer({ minimum: 0, description: 'Rows with a problem: nothing of them is written' }),
});
export type ImportCounts = Static<typeof ImportCounts>;

/** What every view of an import job carries: the job itself, without its problems. */
const ImportJobFields = Type.Object({
  id: ImportId,
  kind: StringEnum(IMPORT_KINDS),
  ownerId: Type.String({ description: 'Whose records the rows become: the caller or the organization it acts for' }),
  dryRun: Type.Boolean(),
  state: StringEnum(IMPORT_STATES, {
    description: 'queued, running, done (every row read; `counts` final), failed (the file could not be read)',
  }),
  filename: Type.String(),
  keyColumn: Type.String({ description: 'The header read as each row’s key' }),
  mapping: Type.Record(Type.String(), Type.String(), { description: 'Header → field as applied' }),
  progress: Type.Object({
    rowsRead: Type.Integer({ minimum: 0 }),
    bytesRead: Type.Integer({ minimum: 0 }),
    totalBytes: Type.Integer({ minimum: 0 }),
  }),
  counts: ImportCounts,
  createdAt: Timestamp,
  startedAt: Type.Union([Timestamp, Type.Null()]),
  finishedAt: Type.Union([Timestamp, Type.Null()]),
});

export const ImportJob = Named(
  'ImportJob',
  Type.Object({
    ...ImportJobFields.properties,
    problems: Type.Object({
      items: Type.Array(ImportProblem, { description: 'The problems in line order, one page' }),
      pagination: Pagination,
      truncated: Type.Boolean({ description: `More than ${IMPORT_LIMITS.maxProblems} problems: the rest are counted` }),
    }),
  }),
);
export type ImportJob = Static<typeof ImportJob>;

/** An import job as a list shows it: its problems counted, to be read page by page with `GET /api/imports/{id}`. */
export const ImportSummary = Named(
  'ImportSummary',
  Type.Object({
    ...ImportJobFields.properties,
    problems: Type.Object({
      kept: Type.Integer({ minimum: 0, description: 'The problems kept, read with `GET /api/imports/{importId}`' }),
      truncated: Type.Boolean({ description: `More than ${IMPORT_LIMITS.maxProblems} problems: the rest are counted` }),
    }),
  }),
);
export type ImportSummary = Static<typeof ImportSummary>;

export const ImportListQuery = Type.Object({
  state: Type.Optional(StringEnum(IMPORT_STATES, { description: 'Only the imports in this state' })),
  ...PageQuery.properties,
});
export type ImportListQuery = Static<typeof ImportListQuery>;

export const importStart = defineSubject({
  subject: 'plants.import.start',
  request: Type.Object(
    {
      ...ImportOptions.properties,
      upload: Type.Object({
        key: Type.String({ pattern: '^imports/[A-Za-z0-9_-]{10,60}$', description: 'Where the gateway stored it' }),
        bytes: Type.Integer({ minimum: 0, maximum: IMPORT_LIMITS.maxBytes }),
        filename: Header,
      }),
      ownerName: Type.Optional(
        Text({ minLength: 1, maxLength: 200, description: 'The owner’s account name, as imported plants record it' }),
      ),
    },
    { additionalProperties: false },
  ),
  reply: ImportJob,
  summary: 'Queue the import of an uploaded CSV file',
});

export const importGet = defineSubject({
  subject: 'plants.import.get',
  request: Type.Object({ importId: ImportId, ...PageQuery.properties }),
  reply: ImportJob,
  summary: 'An import job: its state, progress, counts and one page of its problems',
});

export const importList = defineSubject({
  subject: 'plants.import.list',
  request: ImportListQuery,
  reply: Type.Object({ items: Type.Array(ImportSummary), pagination: Pagination }),
  summary: 'The import jobs of the caller or the organization it acts for, newest first',
});

export const InventoryExportQuery = Type.Object({
  ownerId: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 120,
      description: 'Your own account id, or the organization you act for (the default: the one you act for, else you)',
      examples: ['usr_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
    }),
  ),
});

export const inventoryExportChunk = defineSubject({
  subject: 'plants.inventory.export-chunk',
  request: Type.Object({
    ...InventoryExportQuery.properties,
    kind: StringEnum(IMPORT_KINDS),
    after: Type.Optional(Text({ minLength: 1, maxLength: 80, description: 'The last id of the previous piece' })),
  }),
  reply: Type.Object({
    text: Type.String({ description: 'The next piece of the CSV file (the first with the header line)' }),
    rows: Type.Integer({ minimum: 0 }),
    next: Type.Union([Type.String(), Type.Null()], { description: 'Ask again with `after` this; null at the end' }),
  }),
  summary: 'One piece of a streamed CSV export of an owner’s seed lots or plants',
});
