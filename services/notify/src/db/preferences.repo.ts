import type { Db } from '@rootline/db';
import { eq, sql } from 'drizzle-orm';
import type { Switch } from '../domain/preferences.js';
import { preferences } from './schema.js';

export async function storedSwitches(db: Db, userId: string): Promise<Switch[]> {
  return db
    .select({ type: preferences.type, channel: preferences.channel, enabled: preferences.enabled })
    .from(preferences)
    .where(eq(preferences.userId, userId));
}

export async function saveSwitches(db: Db, userId: string, switches: Switch[], at: string): Promise<void> {
  if (switches.length === 0) return;
  await db
    .insert(preferences)
    .values(switches.map((s) => ({ userId, ...s, updatedAt: at })))
    .onConflictDoUpdate({
      target: [preferences.userId, preferences.type, preferences.channel],
      set: { enabled: sql`excluded.enabled`, updatedAt: sql`excluded.updated_at` },
    });
}
