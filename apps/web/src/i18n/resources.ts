import admin from '../locales/en/admin.json';
import anonymous from '../locales/en/anonymous.json';
import app from '../locales/en/app.json';
import auth from '../locales/en/auth.json';
import demand from '../locales/en/demand.json';
import farms from '../locales/en/farms.json';
import notifications from '../locales/en/notifications.json';
import plants from '../locales/en/plants.json';
import transparency from '../locales/en/transparency.json';

/**
 * The English catalogs, one per namespace: in the main bundle, the fallback of every other language and the source
 * of the key types (i18next.d.ts), so a missing or misspelt key fails the type check.
 */
export const EN = { app, auth, plants, anonymous, notifications, demand, transparency, admin, farms } as const;

export type Namespace = keyof typeof EN;
export const NAMESPACES = Object.keys(EN) as Namespace[];
