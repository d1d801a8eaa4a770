/**
 * The `operationId` of each documented operation: the name client generators give its method. A bus-backed
 * operation's comes from its subject, `<service>.<resource>.<verb>` → `<verb><Resource>` (`plants.plant.register`
 * → `registerPlant`; a `list` verb takes the plural, `farm.zone.list` → `listZones`), unless the table below names
 * it better; an operation the gateway answers itself declares its own. Once published, an id is part of the API.
 */

/** A well-formed operationId: camelCase, letters and digits. */
export const OPERATION_ID = /^[a-z][A-Za-z0-9]+$/;

/** Subjects whose derived name reads badly, is vague without its service, or is taken by another service. */
const BY_SUBJECT: Readonly<Record<string, string>> = {
  'plants.lineage.get': 'getPlantLineage',
  'plants.ownership.history': 'getPlantOwnershipHistory',
  'plants.seed-lot.ownership': 'getSeedLotOwnershipHistory',
  'plants.plant.nearby': 'listNearbyPlants',
  'plants.plant.search': 'searchPlants',
  'plants.network.get': 'getNetworkStats',
  'plants.plant.list-owned': 'listOwnedPlants',
  'plants.plant.list-recent': 'listRecentPlants',
  'plants.lineage-agent.analyse': 'analysePlantLineage',
  'chain.block.verify': 'verifyBlock',
  'transparency.peer.list': 'listFederationPeers',
  'transparency.peer-bundle.get': 'getPeerProofBundle',
  'chain.tx.proof': 'getTransactionProof',
  'chain.stats.get': 'getChainStats',
  'demand.signal.generate': 'generateDemandSignal',
  'demand.recommendation.list': 'listCropRecommendations',
  'demand.forecast.get': 'getDemandForecast',
  'demand.supply.list-matches': 'listSupplyMatches',
  'demand.listing.search': 'searchListings',
  'demand.listing.set-status': 'setListingStatus',
  'demand.listing.recommend': 'listRecommendedListings',
  'demand.offer.list-by-buyer': 'listBuyerOffers',
  'demand.seller.get': 'getSellerProfile',
  'demand.wishlist.add': 'addWishlistItem',
  'demand.wishlist.list': 'listWishlistItems',
  'demand.wishlist.remove': 'removeWishlistItem',
  'environment.record.add': 'addEnvironmentRecord',
  'environment.record.list': 'listEnvironmentRecords',
  'environment.health.get': 'getPlantHealth',
  'environment.recommendations.get': 'getEnvironmentRecommendations',
  'environment.similar.find': 'findSimilarPlants',
  'environment.compare.get': 'comparePlants',
  'environment.analysis.get': 'getEnvironmentAnalysis',
  'farm.batch.record-readings': 'recordBatchReadings',
  'farm.batch.list-readings': 'listBatchReadings',
  'farm.batch.list': 'listFarmBatches',
  'farm.farm.list-owned': 'listOwnedFarms',
  'farm.analytics.get': 'getFarmAnalytics',
  'transport.block.verify': 'verifyTransportBlock',
  'transport.tracker.get': 'getTransportTracker',
  'transport.tracker.control': 'controlTransportTracker',
  'transport.tracker.analytics': 'getTransportTrackerAnalytics',
  'transport.tracker-pattern.list': 'listTransportPatterns',
  'transport.tracker.savings': 'getTransportSavings',
  'notify.notification.unread-count': 'countUnreadNotifications',
  'notify.notification.mark-read': 'markNotificationRead',
  'notify.notification.mark-all-read': 'markAllNotificationsRead',
  'notify.preferences.get': 'getNotificationPreferences',
  'notify.preferences.update': 'updateNotificationPreferences',
  'notify.push.public-key': 'getPushPublicKey',
  'notify.push.subscribe': 'createPushSubscription',
  'notify.push.unsubscribe': 'deletePushSubscription',
  'transparency.event.list': 'listEventHistory',
  'transparency.audit.list': 'listAuditEntries',
  'transparency.audit.append': 'appendAuditEntry',
  'transparency.audit.verify': 'verifyAuditLog',
  'transparency.audit.get': 'getAuditEntry',
  'transparency.tree-head.get': 'getAuditTreeHead',
  'transparency.public-key.get': 'getAuditPublicKey',
  'transparency.consistency-proof.get': 'getAuditConsistencyProof',
  'transparency.inclusion-proof.get': 'getAuditInclusionProof',
  'transparency.report.get': 'getComplianceReport',
  'transparency.dashboard.get': 'getTransparencyDashboard',
  'transparency.health.get': 'getTransparencyHealth',
  'analytics.overview.get': 'getAnalyticsOverview',
  'analytics.plants.get': 'getPlantAnalytics',
  'analytics.transport.get': 'getTransportAnalytics',
  'analytics.farms.get': 'getFarmsAnalytics',
  'analytics.sustainability.get': 'getSustainabilityAnalytics',
};

const words = (kebab: string) => kebab.split('-').filter(Boolean);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function plural(word: string): string {
  if (word.endsWith('s')) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** The operationId of an operation answered by the subject (see the module comment). */
export function operationIdOf(subject: string): string {
  const named = BY_SUBJECT[subject];
  if (named) return named;
  const [, resource = '', verb = ''] = subject.split('.');
  const nouns = words(resource).map(capital);
  if (verb === 'list' && nouns.length > 0) nouns.push(plural(nouns.pop() as string));
  const [first = '', ...rest] = words(verb);
  return [first, ...rest.map(capital), ...nouns].join('');
}
