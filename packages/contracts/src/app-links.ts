/**
 * The pages of the web app, one table for the app's router (apps/web builds its routes from it) and for every link a
 * message carries (notify's emails, push messages and inbox items), so a link cannot name a page the app does not
 * have. Paths use the router's `:param` form. Plain data, no dependencies: the web app imports it too.
 */
export const APP_PAGES = {
  home: '/',
  signIn: '/signin',
  signUp: '/signup',
  verifyEmail: '/verify-email',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  account: '/account',
  registerAnonymous: '/plants/register-anonymous',
  registerPlant: '/plants/new',
  myPlants: '/plants/mine',
  plant: '/plants/:plantId',
  plantEnvironment: '/plants/:plantId/environment',
  seedLots: '/seed-lots',
  seedLot: '/seed-lots/:seedLotId',
  loans: '/loans',
  imports: '/imports',
  environment: '/environment',
  environmentCompare: '/environment/compare',
  environmentAnalysis: '/environment/analysis',
  discover: '/discover',
  farms: '/vertical-farm',
  farmRecipes: '/vertical-farm/recipes',
  farmBatch: '/vertical-farm/batch/:batchId',
  farm: '/vertical-farm/:farmId',
  farmAnalytics: '/vertical-farm/:farmId/analytics',
  demand: '/demand',
  demandPlanning: '/demand/planning',
  demandSupply: '/demand/supply',
  market: '/market',
  marketMine: '/market/mine',
  marketOffers: '/market/offers',
  marketSell: '/market/sell',
  marketWishlist: '/market/wishlist',
  listing: '/market/listings/:listingId',
  seller: '/market/sellers/:sellerId',
  admin: '/admin',
  adminUsers: '/admin/users',
  adminAgents: '/admin/agents',
  adminHealth: '/admin/health',
  network: '/network',
  networkAudit: '/network/audit',
  networkWebhooks: '/network/webhooks',
  networkSignatures: '/network/signatures',
  networkExports: '/network/exports',
  inbox: '/inbox',
  outbox: '/outbox',
  transfers: '/transfers',
  notificationSettings: '/settings/notifications',
  unsubscribe: '/unsubscribe',
  organizations: '/organizations',
  myOrganizations: '/organizations/mine',
  newOrganization: '/organizations/new',
  organizationInvitation: '/organizations/join',
  organization: '/organizations/:organizationId',
  organizationMembers: '/organizations/:organizationId/members',
} as const;

export type AppPage = keyof typeof APP_PAGES;

/**
 * Pages the gateway renders itself, outside the app's router: the public verification page a QR code opens (a plant
 * or a transport event, e.g. a seed lot's handoff, by id).
 */
export const SERVER_PAGES = {
  trace: '/api/transport/trace/:id',
} as const;

export type ServerPage = keyof typeof SERVER_PAGES;

/** The path of a page with its parameters filled in (each encoded), e.g. `appLink('plant', { plantId })`. */
export function appLink(page: AppPage | ServerPage, params: Record<string, string> = {}): string {
  const pattern: string = page in APP_PAGES ? APP_PAGES[page as AppPage] : SERVER_PAGES[page as ServerPage];
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`appLink(${page}): missing ${name}`);
    return encodeURIComponent(value);
  });
}

/** Whether a pattern (`/plants/:plantId`) matches a path (its query string and fragment ignored). */
export function pathMatches(pattern: string, path: string): boolean {
  const bare = path.split(/[?#]/)[0] ?? '';
  const a = pattern.split('/');
  const b = bare.split('/');
  return a.length === b.length && a.every((seg, i) => (seg.startsWith(':') ? b[i] !== '' : seg === b[i]));
}

/** The page of the app (or of the gateway) a path opens, or null when none does. */
export function pageOf(path: string): AppPage | ServerPage | null {
  for (const [name, pattern] of Object.entries({ ...APP_PAGES, ...SERVER_PAGES })) {
    if (pathMatches(pattern, path)) return name as AppPage | ServerPage;
  }
  return null;
}
