import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { defineSubject } from './define.js';
import { PRIVACY_LEVELS } from './plants.js';

export const PlantPrivacyDistribution = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Plants registered in the period' }),
  byLevel: Type.Array(
    Type.Object({ level: Type.Union(PRIVACY_LEVELS.map((l) => Type.Literal(l))), count: Type.Integer({ minimum: 0 }) }),
    { description: 'Every privacy level, in the order exact, fuzzy, city, country, hidden' },
  ),
});
export type PlantPrivacyDistribution = Static<typeof PlantPrivacyDistribution>;

export const plantPrivacyDistributionGet = defineSubject({
  subject: 'plants.privacy.distribution',
  request: Type.Object({
    from: Type.Optional(Timestamp),
    to: Type.Optional(Timestamp),
  }),
  reply: PlantPrivacyDistribution,
  summary: 'How many plants were registered at each location privacy level in a period (counts only)',
});
