import type { Db } from '@rootline/db';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Switch } from '../domain/preferences.js';
import { preferences } from './schema.js';

export async function storedSwitches(db: Db, userId: string): Promise<Switch[]> {
  return db
    .select({ type: preferences.type, channel: preferences.channel, enabled: preferences.enabled })
    .from(preferences)
    .where(eq(preferences.userId, userId));
}

/** The stored switches of several people, by person (someone with none stored is absent). */
export async function storedSwitchesOf(db: Db, userIds: readonly string[]): Promise<Map<string, Switch[]>> {
  const rows = await db
    .select({
      userId: preferences.userId,
      type: preferences.type,
      channel: preferences.channel,
      enabled: preferences.enabled,
    })
    .from(preferences)
    .where(inArray(preferences.userId, [...userIds]));
  const out = new Map<string, Switch[]>();
  for (const { userId, ...s } of rows) {
    const list = out.get(userId);
    if (list) list.push(s);
    else out.set(userId, [s]);
  }
  return out;
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
