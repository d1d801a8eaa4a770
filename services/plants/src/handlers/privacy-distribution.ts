import { PRIVACY_LEVELS, plantPrivacyDistributionGet } from '@rootline/contracts';
import { handle, type ServiceContext } from '@rootline/host';
import { privacyLevelCounts } from '../db/privacy-distribution.repo.js';

/** plants.privacy.distribution: counts of plants by privacy level (for the transparency compliance report). */
export const privacyDistribution = (ctx: ServiceContext) =>
  handle(plantPrivacyDistributionGet, async ({ from, to }) => {
    const rows = await privacyLevelCounts(ctx.db, from, to);
    const byLevel = PRIVACY_LEVELS.map((level) => ({
      level,
      count: rows.find((r) => r.level === level)?.count ?? 0,
    }));
    return { total: byLevel.reduce((n, l) => n + l.count, 0), byLevel };
  });
