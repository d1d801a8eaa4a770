import { registerEnglish, t } from '../i18n';
import english from '../locales/en/app.json';

registerEnglish('app', english);
/** The frame of every page: skip link, navigation, footer. */
export const NAV = {
  get label() {
    return t('app:nav.label');
  },
  get menu() {
    return t('app:nav.menu');
  },
  get close() {
    return t('app:nav.close');
  },
  get skip() {
    return t('app:nav.skip');
  },
  get home() {
    return t('app:nav.home');
  },
  get discover() {
    return t('app:nav.discover');
  },
  get register() {
    return t('app:nav.register');
  },
  get mine() {
    return t('app:nav.mine');
  },
  get market() {
    return t('app:nav.market');
  },
  get anonymous() {
    return t('app:nav.anonymous');
  },
  get farms() {
    return t('app:nav.farms');
  },
  get demand() {
    return t('app:nav.demand');
  },
  get environment() {
    return t('app:nav.environment');
  },
  get account() {
    return t('app:nav.account');
  },
  get admin() {
    return t('app:nav.admin');
  },
  get network() {
    return t('app:nav.network');
  },
  get organizations() {
    return t('app:nav.organizations');
  },
  get actingAs() {
    return t('app:nav.actingAs');
  },
  /** Beside the person in the header while the API cannot be reached. */
  get offline() {
    return t('app:nav.offline');
  },
  actingAsYou: (name: string) => t('app:nav.actingAsYou', { name }),
  get signIn() {
    return t('app:nav.signIn');
  },
  get signUp() {
    return t('app:nav.signUp');
  },
  get footer() {
    return t('app:nav.footer');
  },
  get api() {
    return t('app:nav.api');
  },
  get language() {
    return t('app:nav.language');
  },
};

/** The landing page. */
export const HOME = {
  get title() {
    return t('app:home.title');
  },
  get lead() {
    return t('app:home.lead');
  },
  get start() {
    return t('app:home.start');
  },
  cards: {
    anonymous: {
      get title() {
        return t('app:home.cards.anonymous.title');
      },
      get text() {
        return t('app:home.cards.anonymous.text');
      },
    },
    discover: {
      get title() {
        return t('app:home.cards.discover.title');
      },
      get text() {
        return t('app:home.cards.discover.text');
      },
    },
    signUp: {
      get title() {
        return t('app:home.cards.signUp.title');
      },
      get text() {
        return t('app:home.cards.signUp.text');
      },
    },
  },
  get signedIn() {
    return t('app:home.signedIn');
  },
  get mine() {
    return t('app:home.mine');
  },
  get discover() {
    return t('app:home.discover');
  },
  get signUp() {
    return t('app:home.signUp');
  },
};

export const DISCOVER = {
  get title() {
    return t('app:discover.title');
  },
  get lead() {
    return t('app:discover.lead');
  },
};

export const NOT_FOUND = {
  get title() {
    return t('app:notFound.title');
  },
  get lead() {
    return t('app:notFound.lead');
  },
  get home() {
    return t('app:notFound.home');
  },
};

/** What a page that failed to load or render says. */
export const ROUTE_ERROR = {
  get title() {
    return t('app:routeError.title');
  },
  get back() {
    return t('app:routeError.back');
  },
};
