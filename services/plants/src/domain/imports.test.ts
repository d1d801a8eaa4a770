import { describe, expect, it } from 'vitest';
import { exportCells, readPlantRow, readSeedLotRow, resolveColumns, sameSeedLot } from './imports.js';

const LOT_HEADER = ['key', 'crop', 'variety', 'harvestYear', 'quantityAmount', 'quantityUnit', 'parentPlantIds'];

describe('import columns', () => {
  it('reads headers named like fields, maps others, and names what is missing', () => {
    const { columns, problems } = resolveColumns(
      'seed-lots',
      ['Ref', 'Crop', 'harvestYear', 'Seeds', 'quantityUnit', 'Other'],
      { Crop: 'crop', Seeds: 'quantityAmount' },
      'Ref',
    );
    expect(problems).toEqual([]);
    expect(columns.applied).toEqual({
      Ref: 'key',
      Crop: 'crop',
      Seeds: 'quantityAmount',
      harvestYear: 'harvestYear',
      quantityUnit: 'quantityUnit',
    });
    const bad = resolveColumns('seed-lots', ['crop'], { Year: 'harvestYear', crop: 'latitude' }, undefined);
    expect(bad.problems.map((p) => [p.reason, p.column ?? p.field])).toEqual(
      expect.arrayContaining([
        ['unknown-column', 'Year'],
        ['unknown-field', 'crop'],
        ['missing-column', 'key'],
        ['missing-column', 'quantityAmount'],
      ]),
    );
  });
});

describe('seed-lot rows', () => {
  const { columns } = resolveColumns('seed-lots', LOT_HEADER, {}, undefined);
  it('reads a good row to the values a lot stores', () => {
    const row = readSeedLotRow(
      ['k1', ' Tomato ', 'Brandywine', '2025', '1.5e2', 'seeds', 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD; '],
      columns,
    );
    expect(row.problems).toEqual([]);
    expect('values' in row && row.values).toMatchObject({
      crop: 'Tomato',
      harvestYear: 2025,
      quantityAmount: 150,
      parentPlantIds: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'],
      storagePlace: null,
    });
  });
  it('names every problem of a bad row by its column', () => {
    const row = readSeedLotRow(['', '', '', '2025.5', 'many', 'buckets', 'tomato-1'], columns);
    expect(row.problems.map((p) => [p.field, p.reason])).toEqual(
      expect.arrayContaining([
        ['key', 'required'],
        ['crop', 'required'],
        ['harvestYear', 'not-an-integer'],
        ['quantityAmount', 'not-a-number'],
        ['quantityUnit', 'not-allowed'],
        ['parentPlantIds', 'malformed'],
      ]),
    );
  });
  it('exports the cells an import reads back to the same values', () => {
    const row = readSeedLotRow(['k2', 'Bean', '', '2024', '0.1', 'grams', ''], columns);
    if (!('values' in row)) throw new Error('refused');
    const cells = exportCells('seed-lots', 'k2', row.values);
    const all = resolveColumns(
      'seed-lots',
      [
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
      ],
      {},
      undefined,
    );
    const again = readSeedLotRow(cells, all.columns);
    if (!('values' in again)) throw new Error('refused');
    expect(sameSeedLot(row.values, again.values)).toBe(true);
  });
});

describe('plant rows', () => {
  const { columns } = resolveColumns(
    'plants',
    ['key', 'commonName', 'latitude', 'longitude', 'privacyLevel'],
    {},
    undefined,
  );
  it('reads a plant and refuses a point off the globe or an unknown level', () => {
    expect(readPlantRow(['p1', 'Fig', '43.3', '5.4', 'city'], columns)).toMatchObject({
      problems: [],
      values: { commonName: 'Fig', latitude: 43.3, privacyLevel: 'city' },
    });
    const bad = readPlantRow(['p2', 'Fig', '91', '5.4', 'secret'], columns);
    expect(bad.problems.map((p) => [p.field, p.reason])).toEqual([
      ['latitude', 'out-of-range'],
      ['privacyLevel', 'not-allowed'],
    ]);
  });
});
