import type admin from '../locales/en/admin.json';
import type anonymous from '../locales/en/anonymous.json';
import type app from '../locales/en/app.json';
import type auth from '../locales/en/auth.json';
import type common from '../locales/en/common.json';
import type demand from '../locales/en/demand.json';
import type environment from '../locales/en/environment.json';
import type farms from '../locales/en/farms.json';
import type journeys from '../locales/en/journeys.json';
import type lineage from '../locales/en/lineage.json';
import type loans from '../locales/en/loans.json';
import type market from '../locales/en/market.json';
import type media from '../locales/en/media.json';
import type notifications from '../locales/en/notifications.json';
import type organizations from '../locales/en/organizations.json';
import type outbox from '../locales/en/outbox.json';
import type plants from '../locales/en/plants.json';
import type seeds from '../locales/en/seeds.json';
import type transparency from '../locales/en/transparency.json';

/**
 * The English catalogs' shapes, one per namespace: the source of the key types (i18next.d.ts), so a missing or
 * misspelt key fails the type check. The catalogs themselves travel with their features: each feature's
 * `strings.ts` registers its English catalog (`registerEnglish`), so a page's first load carries only the texts of
 * the code it runs.
 */
export interface EnglishCatalogs {
  app: typeof app;
  auth: typeof auth;
  plants: typeof plants;
  anonymous: typeof anonymous;
  notifications: typeof notifications;
  demand: typeof demand;
  transparency: typeof transparency;
  admin: typeof admin;
  farms: typeof farms;
  market: typeof market;
  media: typeof media;
  lineage: typeof lineage;
  journeys: typeof journeys;
  environment: typeof environment;
  common: typeof common;
  outbox: typeof outbox;
  organizations: typeof organizations;
  seeds: typeof seeds;
  loans: typeof loans;
}

export type Namespace = keyof EnglishCatalogs;
export const NAMESPACES = [
  'app',
  'auth',
  'plants',
  'anonymous',
  'notifications',
  'demand',
  'transparency',
  'admin',
  'farms',
  'market',
  'media',
  'lineage',
  'journeys',
  'environment',
  'common',
  'outbox',
  'organizations',
  'seeds',
  'loans',
] as const satisfies readonly Namespace[];
