import { currentLanguage, registerEnglish, t } from '../../i18n';
import { isOneOf } from '../../lib/one-of';
import english from '../../locales/en/market.json';
import { LISTING_CATEGORIES } from './api/listings';
import { listingReason } from './lib/reasons';

registerEnglish('market', english);

/** A number with exactly `digits` decimals, as the reader's language writes it (a rating of 4.00, a price). */
const fixed = (n: number, digits: number) =>
  n.toLocaleString(currentLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
const PROPAGATION_TYPES = ['clone', 'seed', 'cutting', 'graft', 'division', 'layering', 'tissue-culture'] as const;

/** Every text of the marketplace pages, in one place. */
export const MARKET = {
  nav: {
    get label() {
      return t('market:nav.label');
    },
    get browse() {
      return t('market:nav.browse');
    },
    get mine() {
      return t('market:nav.mine');
    },
    get offers() {
      return t('market:nav.offers');
    },
    get sell() {
      return t('market:nav.sell');
    },
    get wishlist() {
      return t('market:nav.wishlist');
    },
  },
  categories: {
    get seeds() {
      return t('market:categories.seeds');
    },
    get seedlings() {
      return t('market:categories.seedlings');
    },
    get cuttings() {
      return t('market:categories.cuttings');
    },
    get plants() {
      return t('market:categories.plants');
    },
    get produce() {
      return t('market:categories.produce');
    },
  },
  statuses: {
    get draft() {
      return t('market:statuses.draft');
    },
    get active() {
      return t('market:statuses.active');
    },
    get sold() {
      return t('market:statuses.sold');
    },
    get cancelled() {
      return t('market:statuses.cancelled');
    },
  },
  /** How a plant was propagated, from the API's code (an unknown code is shown as it is). */
  propagation: (type: string) => (isOneOf(PROPAGATION_TYPES, type) ? t(`market:propagation.${type}`) : type),
  browse: {
    get title() {
      return t('market:browse.title');
    },
    get lead() {
      return t('market:browse.lead');
    },
    get filters() {
      return t('market:browse.filters');
    },
    get q() {
      return t('market:browse.q');
    },
    get category() {
      return t('market:browse.category');
    },
    get anyCategory() {
      return t('market:browse.anyCategory');
    },
    get minPrice() {
      return t('market:browse.minPrice');
    },
    get maxPrice() {
      return t('market:browse.maxPrice');
    },
    get priceHint() {
      return t('market:browse.priceHint');
    },
    get latitude() {
      return t('market:browse.latitude');
    },
    get longitude() {
      return t('market:browse.longitude');
    },
    get near() {
      return t('market:browse.near');
    },
    get nearHint() {
      return t('market:browse.nearHint');
    },
    get place() {
      return t('market:browse.place');
    },
    get placeHint() {
      return t('market:browse.placeHint');
    },
    get pickMap() {
      return t('market:browse.pickMap');
    },
    get clearPoint() {
      return t('market:browse.clearPoint');
    },
    /** Coordinates keep the decimal point in every language: a comma would run into the one between them. */
    point: (lat: number, lon: number) => t('market:browse.point', { lat: lat.toFixed(3), lon: lon.toFixed(3) }),
    get radius() {
      return t('market:browse.radius');
    },
    get submit() {
      return t('market:browse.submit');
    },
    get view() {
      return t('market:browse.view');
    },
    get list() {
      return t('market:browse.list');
    },
    get map() {
      return t('market:browse.map');
    },
    get resultsMap() {
      return t('market:browse.resultsMap');
    },
    found: (count: number) => t('market:browse.found', { count }),
    get none() {
      return t('market:browse.none');
    },
    hiddenOnMap: (count: number) => t('market:browse.hiddenOnMap', { count }),
    distance: (km: string) => t('market:browse.distance', { km }),
    left: (count: number) => t('market:browse.left', { count }),
    soldBy: (name: string) => t('market:browse.soldBy', { name }),
    get pages() {
      return t('market:browse.pages');
    },
  },
  listing: {
    get details() {
      return t('market:listing.details');
    },
    get seller() {
      return t('market:listing.seller');
    },
    get sellerProfile() {
      return t('market:listing.sellerProfile');
    },
    ids: {
      get listing() {
        return t('market:listing.ids.listing');
      },
      get seller() {
        return t('market:listing.ids.seller');
      },
      get plant() {
        return t('market:listing.ids.plant');
      },
    },
    get price() {
      return t('market:listing.price');
    },
    get left() {
      return t('market:listing.left');
    },
    get category() {
      return t('market:listing.category');
    },
    get status() {
      return t('market:listing.status');
    },
    get location() {
      return t('market:listing.location');
    },
    get hidden() {
      return t('market:listing.hidden');
    },
    get listed() {
      return t('market:listing.listed');
    },
    get plant() {
      return t('market:listing.plant');
    },
    get lineage() {
      return t('market:listing.lineage');
    },
    get lineageLead() {
      return t('market:listing.lineageLead');
    },
    generation: (generation: number) => t('market:listing.generation', { generation }),
    get noAncestors() {
      return t('market:listing.noAncestors');
    },
    get noPlant() {
      return t('market:listing.noPlant');
    },
    get sold() {
      return t('market:listing.sold');
    },
    get cancelled() {
      return t('market:listing.cancelled');
    },
    get draft() {
      return t('market:listing.draft');
    },
    get yours() {
      return t('market:listing.yours');
    },
    get missing() {
      return t('market:listing.missing');
    },
  },
  visitor: {
    get title() {
      return t('market:visitor.title');
    },
    get lead() {
      return t('market:visitor.lead');
    },
    get signIn() {
      return t('market:visitor.signIn');
    },
  },
  gallery: {
    get title() {
      return t('market:gallery.title');
    },
    open: (alt: string) => t('market:gallery.open', { alt }),
  },
  photos: {
    get label() {
      return t('market:photos.label');
    },
    hint: (max: number) => t('market:photos.hint', { max }),
    get busy() {
      return t('market:photos.busy');
    },
    get untitled() {
      return t('market:photos.untitled');
    },
    /** What the i-th of n photos shows, as the lists say it (ADR 203). */
    alt: (title: string, i: number, n: number) =>
      n > 1 ? t('market:photos.altOf', { index: i + 1, total: n, title }) : t('market:photos.alt', { title }),
    remove: (i: number) => t('market:photos.remove', { index: i + 1 }),
  },
  moves: {
    get title() {
      return t('market:moves.title');
    },
    get publish() {
      return t('market:moves.publish');
    },
    get unpublish() {
      return t('market:moves.unpublish');
    },
    get cancel() {
      return t('market:moves.cancel');
    },
    get confirmCancel() {
      return t('market:moves.confirmCancel');
    },
    final: {
      get draft() {
        return t('market:moves.final.draft');
      },
      get active() {
        return t('market:moves.final.active');
      },
      get sold() {
        return t('market:moves.final.sold');
      },
      get cancelled() {
        return t('market:moves.final.cancelled');
      },
    },
    get leavingActive() {
      return t('market:moves.leavingActive');
    },
    done: {
      get draft() {
        return t('market:moves.done.draft');
      },
      get active() {
        return t('market:moves.done.active');
      },
      get sold() {
        return t('market:moves.done.sold');
      },
      get cancelled() {
        return t('market:moves.done.cancelled');
      },
    },
    get edit() {
      return t('market:moves.edit');
    },
  },
  form: {
    get createTitle() {
      return t('market:form.createTitle');
    },
    get createLead() {
      return t('market:form.createLead');
    },
    get editTitle() {
      return t('market:form.editTitle');
    },
    get plant() {
      return t('market:form.plant');
    },
    get noPlant() {
      return t('market:form.noPlant');
    },
    plantOption: (name: string, generation: number) => t('market:form.plantOption', { name, generation }),
    get plantHint() {
      return t('market:form.plantHint');
    },
    get title() {
      return t('market:form.title');
    },
    get description() {
      return t('market:form.description');
    },
    get category() {
      return t('market:form.category');
    },
    price: (currency: string) => t('market:form.price', { currency }),
    get currency() {
      return t('market:form.currency');
    },
    get currencyHint() {
      return t('market:form.currencyHint');
    },
    get quantity() {
      return t('market:form.quantity');
    },
    get asDraft() {
      return t('market:form.asDraft');
    },
    get create() {
      return t('market:form.create');
    },
    get save() {
      return t('market:form.save');
    },
    get cancelEdit() {
      return t('market:form.cancelEdit');
    },
    get busy() {
      return t('market:form.busy');
    },
    get badPrice() {
      return t('market:form.badPrice');
    },
    get missingLocation() {
      return t('market:form.missingLocation');
    },
  },
  offers: {
    get title() {
      return t('market:offers.title');
    },
    get leadSeller() {
      return t('market:offers.leadSeller');
    },
    get leadBuyer() {
      return t('market:offers.leadBuyer');
    },
    get none() {
      return t('market:offers.none');
    },
    get buyer() {
      return t('market:offers.buyer');
    },
    get someBuyer() {
      return t('market:offers.someBuyer');
    },
    ids: {
      get offer() {
        return t('market:offers.ids.offer');
      },
      get buyer() {
        return t('market:offers.ids.buyer');
      },
    },
    get quantity() {
      return t('market:offers.quantity');
    },
    get price() {
      return t('market:offers.price');
    },
    get counter() {
      return t('market:offers.counter');
    },
    get status() {
      return t('market:offers.status');
    },
    get message() {
      return t('market:offers.message');
    },
    get actions() {
      return t('market:offers.actions');
    },
    statuses: {
      get pending() {
        return t('market:offers.statuses.pending');
      },
      get countered() {
        return t('market:offers.statuses.countered');
      },
      get accepted() {
        return t('market:offers.statuses.accepted');
      },
      get rejected() {
        return t('market:offers.statuses.rejected');
      },
      get withdrawn() {
        return t('market:offers.statuses.withdrawn');
      },
    },
    reasons: {
      get declined() {
        return t('market:offers.reasons.declined');
      },
      get 'counter-declined'() {
        return t('market:offers.reasons.counter-declined');
      },
      get 'sold-out'() {
        return t('market:offers.reasons.sold-out');
      },
      get 'listing-cancelled'() {
        return t('market:offers.reasons.listing-cancelled');
      },
      get 'listing-unpublished'() {
        return t('market:offers.reasons.listing-unpublished');
      },
    },
    get accept() {
      return t('market:offers.accept');
    },
    get acceptCounter() {
      return t('market:offers.acceptCounter');
    },
    get reject() {
      return t('market:offers.reject');
    },
    get rejectCounter() {
      return t('market:offers.rejectCounter');
    },
    get withdraw() {
      return t('market:offers.withdraw');
    },
    counterPrice: (currency: string) => t('market:offers.counterPrice', { currency }),
    get sendCounter() {
      return t('market:offers.sendCounter');
    },
    get counterAgain() {
      return t('market:offers.counterAgain');
    },
    get awaitingBuyer() {
      return t('market:offers.awaitingBuyer');
    },
    get awaitingSeller() {
      return t('market:offers.awaitingSeller');
    },
    bought: (quantity: number, price: string) => t('market:offers.bought', { price, quantity }),
    sold: (quantity: number, price: string) => t('market:offers.sold', { price, quantity }),
    get lost() {
      return t('market:offers.lost');
    },
    get soldOut() {
      return t('market:offers.soldOut');
    },
    get raceLost() {
      return t('market:offers.raceLost');
    },
    fewerLeft: (count: number) => t('market:offers.fewerLeft', { count }),
    get offSale() {
      return t('market:offers.offSale');
    },
    get make() {
      return t('market:offers.make');
    },
    makeLead: (left: number) => t('market:offers.makeLead', { left }),
    get offerQuantity() {
      return t('market:offers.offerQuantity');
    },
    offerPrice: (currency: string) => t('market:offers.offerPrice', { currency }),
    get offerMessage() {
      return t('market:offers.offerMessage');
    },
    get send() {
      return t('market:offers.send');
    },
    get sent() {
      return t('market:offers.sent');
    },
    get closed() {
      return t('market:offers.closed');
    },
    get review() {
      return t('market:offers.review');
    },
    get rating() {
      return t('market:offers.rating');
    },
    get comment() {
      return t('market:offers.comment');
    },
    get sendReview() {
      return t('market:offers.sendReview');
    },
    get reviewed() {
      return t('market:offers.reviewed');
    },
    /** `open` of the `total` offers are still open. */
    count: (open: number, total: number) => t('market:offers.count', { count: total, open }),
    item: (quantity: number, price: string) => t('market:offers.item', { price, quantity }),
  },
  mine: {
    get title() {
      return t('market:mine.title');
    },
    get lead() {
      return t('market:mine.lead');
    },
    get status() {
      return t('market:mine.status');
    },
    get all() {
      return t('market:mine.all');
    },
    get none() {
      return t('market:mine.none');
    },
    get create() {
      return t('market:mine.create');
    },
    columns: {
      get title() {
        return t('market:mine.columns.title');
      },
      get status() {
        return t('market:mine.columns.status');
      },
      get price() {
        return t('market:mine.columns.price');
      },
      get left() {
        return t('market:mine.columns.left');
      },
      get updated() {
        return t('market:mine.columns.updated');
      },
    },
  },
  buyerOffers: {
    get title() {
      return t('market:buyerOffers.title');
    },
    get lead() {
      return t('market:buyerOffers.lead');
    },
    get status() {
      return t('market:buyerOffers.status');
    },
    get all() {
      return t('market:buyerOffers.all');
    },
    get none() {
      return t('market:buyerOffers.none');
    },
    get browse() {
      return t('market:buyerOffers.browse');
    },
    columns: {
      get listing() {
        return t('market:buyerOffers.columns.listing');
      },
      get seller() {
        return t('market:buyerOffers.columns.seller');
      },
      get offer() {
        return t('market:buyerOffers.columns.offer');
      },
      get status() {
        return t('market:buyerOffers.columns.status');
      },
      get listingState() {
        return t('market:buyerOffers.columns.listingState');
      },
      get updated() {
        return t('market:buyerOffers.columns.updated');
      },
    },
    offer: (quantity: number, price: string) => t('market:buyerOffers.offer', { price, quantity }),
    counter: (price: string) => t('market:buyerOffers.counter', { price }),
    get aSeller() {
      return t('market:buyerOffers.aSeller');
    },
  },
  seller: {
    get title() {
      return t('market:seller.title');
    },
    get lead() {
      return t('market:seller.lead');
    },
    get id() {
      return t('market:seller.id');
    },
    get unnamed() {
      return t('market:seller.unnamed');
    },
    get active() {
      return t('market:seller.active');
    },
    get sales() {
      return t('market:seller.sales');
    },
    get units() {
      return t('market:seller.units');
    },
    get rating() {
      return t('market:seller.rating');
    },
    get noRating() {
      return t('market:seller.noRating');
    },
    ratingOf: (average: number, count: number) => t('market:seller.ratingOf', { count, average: fixed(average, 2) }),
    get categories() {
      return t('market:seller.categories');
    },
    get since() {
      return t('market:seller.since');
    },
    get listings() {
      return t('market:seller.listings');
    },
    get noListings() {
      return t('market:seller.noListings');
    },
  },
  wishlist: {
    get page() {
      return t('market:wishlist.page');
    },
    get title() {
      return t('market:wishlist.title');
    },
    get lead() {
      return t('market:wishlist.lead');
    },
    get private() {
      return t('market:wishlist.private');
    },
    get add() {
      return t('market:wishlist.add');
    },
    get q() {
      return t('market:wishlist.q');
    },
    get category() {
      return t('market:wishlist.category');
    },
    get anyCategory() {
      return t('market:wishlist.anyCategory');
    },
    get maxPrice() {
      return t('market:wishlist.maxPrice');
    },
    get maxPriceHint() {
      return t('market:wishlist.maxPriceHint');
    },
    get submit() {
      return t('market:wishlist.submit');
    },
    get none() {
      return t('market:wishlist.none');
    },
    remove: (what: string) => t('market:wishlist.remove', { what }),
    get removed() {
      return t('market:wishlist.removed');
    },
    quoted: (words: string) => t('market:wishlist.quoted', { words }),
    atMost: (price: string) => t('market:wishlist.atMost', { price }),
    /** A wish as the list says it: its words, category, crop and highest price, as far as given. */
    describe: (item: { q: string | null; category: string | null; maxPrice: number | null; crop: string | null }) =>
      [
        item.q && t('market:wishlist.quoted', { words: item.q }),
        item.category &&
          (isOneOf(LISTING_CATEGORIES, item.category) ? t(`market:categories.${item.category}`) : item.category),
        item.crop,
        item.maxPrice !== null && t('market:wishlist.atMost', { price: fixed(item.maxPrice / 100, 2) }),
      ]
        .filter(Boolean)
        .join(', '),
  },
  recommendations: {
    get title() {
      return t('market:recommendations.title');
    },
    get lead() {
      return t('market:recommendations.lead');
    },
    get none() {
      return t('market:recommendations.none');
    },
    score: (score: number) => t('market:recommendations.score', { score: fixed(score, 2) }),
    reason: listingReason,
  },
} as const;
