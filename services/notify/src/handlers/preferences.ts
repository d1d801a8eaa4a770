import {
  AppError,
  notificationPreferencesGet,
  notificationPreferencesUpdate,
  notificationUnsubscribe,
} from '@rootline/contracts';
import { actingUser } from '@rootline/domain';
import { handle, type ServiceContext } from '@rootline/host';
import { saveSwitches, storedSwitches } from '../db/preferences.repo.js';
import { effectivePreferences, switchesOf } from '../domain/preferences.js';
import { verifyUnsubscribeToken } from '../domain/unsubscribe.js';

export const getPreferences = (ctx: ServiceContext) =>
  handle(notificationPreferencesGet, async (_input, caller) =>
    effectivePreferences(await storedSwitches(ctx.db, actingUser(caller).id)),
  );

/** Stores the switches named; the others keep their value. Answers the whole set. */
export const updatePreferences = (ctx: ServiceContext) =>
  handle(notificationPreferencesUpdate, async (input, caller) => {
    const { id } = actingUser(caller);
    await saveSwitches(ctx.db, id, switchesOf(input), ctx.clock.now().toISOString());
    return effectivePreferences(await storedSwitches(ctx.db, id));
  });

/** The unsubscribe link of an email: the signed token names the user and type, so no sign-in is needed. */
export const unsubscribe = (ctx: ServiceContext, key: Buffer) =>
  handle(notificationUnsubscribe, async ({ token }) => {
    const u = verifyUnsubscribeToken(key, token);
    if (!u) {
      throw new AppError('VALIDATION_ERROR', 'The unsubscribe link is not valid', [
        { field: 'token', message: 'not a token of this service' },
      ]);
    }
    await saveSwitches(
      ctx.db,
      u.userId,
      [{ type: u.type, channel: 'email', enabled: false }],
      ctx.clock.now().toISOString(),
    );
    return { type: u.type, channel: 'email' as const, enabled: false as const };
  });
