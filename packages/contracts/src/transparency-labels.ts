import { Type } from '@sinclair/typebox';
import { LOCALES } from './auth.js';
import { Defaulted, defineSubject } from './define.js';
import { PlantId, StringEnum } from './plants.js';

/**
 * Label sheets: `a4-3x8` (A4, 3 columns × 8 rows, 24 labels a page), `letter-3x10` (US Letter, 3 × 10, 30 a page,
 * the common address-label sheet) and `seed-packet` (A4, 2 × 4 seed-packet labels, 8 a page).
 */
export const LABEL_LAYOUTS = ['a4-3x8', 'letter-3x10', 'seed-packet'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

/** Labels on one page of each layout. */
export const LABELS_PER_PAGE: Record<LabelLayout, number> = { 'a4-3x8': 24, 'letter-3x10': 30, 'seed-packet': 8 };

/** The most plants one request may print (ten A4 sheets). */
export const LABELS_MAX_PLANTS = 240;

export const LabelsRequest = Type.Object(
  {
    plantIds: Type.Array(PlantId, {
      minItems: 1,
      maxItems: LABELS_MAX_PLANTS,
      uniqueItems: true,
      description: `The plants to label, in print order (1–${LABELS_MAX_PLANTS}, no repeats); any plant, since plant names are public`,
    }),
    layout: StringEnum(LABEL_LAYOUTS, {
      description:
        '`a4-3x8`: A4, 24 labels a page; `letter-3x10`: US Letter, 30 a page; `seed-packet`: A4, 8 seed-packet ' +
        'labels a page (crop, variety, the plant the seed was saved from, harvest date)',
    }),
    startAt: Defaulted(
      Type.Integer({
        minimum: 1,
        maximum: 30,
        default: 1,
        description:
          'The position of the first label on the first page (1 = top left, row by row), to use up a sheet that ' +
          'is partly used; at most the labels on a page',
      }),
    ),
    harvestedOn: Type.Optional(
      Type.String({
        pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$',
        description: 'seed-packet: when the seed was harvested (YYYY, YYYY-MM or YYYY-MM-DD); default: today',
      }),
    ),
    language: Type.Optional(
      StringEnum(LOCALES, {
        description:
          'The language of the words printed beside the names (a seed packet\'s "Seeds", "Harvested"); default en',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ plantIds: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'], layout: 'a4-3x8', startAt: 1 }],
  },
);

export const transparencyLabelsRender = defineSubject({
  subject: 'transparency.labels.render',
  request: LabelsRequest,
  reply: Type.Object({
    pdf: Type.String({ description: 'The PDF, base64' }),
    pages: Type.Integer({ minimum: 1 }),
    labels: Type.Integer({ minimum: 1 }),
  }),
  summary: 'A PDF sheet of QR labels for plants',
});
