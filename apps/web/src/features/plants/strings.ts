import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/plants.json';

registerEnglish('plants', english);
/** Every text of the plant pages, in one place. */
export const PLANTS = {
  register: {
    get title() {
      return t('plants:register.title');
    },
    get lead() {
      return t('plants:register.lead');
    },
    get commonName() {
      return t('plants:register.commonName');
    },
    get scientificName() {
      return t('plants:register.scientificName');
    },
    get submit() {
      return t('plants:register.submit');
    },
    get busy() {
      return t('plants:register.busy');
    },
    get missingLocation() {
      return t('plants:register.missingLocation');
    },
  },
  propagate: {
    get title() {
      return t('plants:propagate.title');
    },
    get lead() {
      return t('plants:propagate.lead');
    },
    get type() {
      return t('plants:propagate.type');
    },
    types: {
      get clone() {
        return t('plants:propagate.types.clone');
      },
      get seed() {
        return t('plants:propagate.types.seed');
      },
      get cutting() {
        return t('plants:propagate.types.cutting');
      },
      get graft() {
        return t('plants:propagate.types.graft');
      },
      get division() {
        return t('plants:propagate.types.division');
      },
      get layering() {
        return t('plants:propagate.types.layering');
      },
      get 'tissue-culture'() {
        return t('plants:propagate.types.tissue-culture');
      },
    },
    get sameLocation() {
      return t('plants:propagate.sameLocation');
    },
    get submit() {
      return t('plants:propagate.submit');
    },
    get busy() {
      return t('plants:propagate.busy');
    },
    get done() {
      return t('plants:propagate.done');
    },
  },
  discover: {
    get nearby() {
      return t('plants:discover.nearby');
    },
    get nearbyHint() {
      return t('plants:discover.nearbyHint');
    },
    get place() {
      return t('plants:discover.place');
    },
    get placeHint() {
      return t('plants:discover.placeHint');
    },
    get chosenPoint() {
      return t('plants:discover.chosenPoint');
    },
    near: (where: string) => t('plants:discover.near', { where }),
    get map() {
      return t('plants:discover.map');
    },
    get radius() {
      return t('plants:discover.radius');
    },
    found: (shown: number, total: string, estimate: boolean) =>
      estimate ? t('plants:discover.foundAbout', { shown, total }) : t('plants:discover.found', { shown, total }),
    get pick() {
      return t('plants:discover.pick');
    },
    get search() {
      return t('plants:discover.search');
    },
    get query() {
      return t('plants:discover.query');
    },
    get submit() {
      return t('plants:discover.submit');
    },
    results: (total: string, estimate: boolean) =>
      estimate ? t('plants:discover.resultsAbout', { total }) : t('plants:discover.results', { total }),
    get previous() {
      return t('plants:discover.previous');
    },
    get next() {
      return t('plants:discover.next');
    },
    page: (page: number, pages: number) => t('plants:discover.page', { page, pages }),
    matched: (field: 'species' | 'location' | 'owner', kind: 'exact' | 'prefix' | 'word' | 'substring') =>
      t('plants:discover.matched', {
        field: t(`plants:discover.fields.${field}`),
        kind: t(`plants:discover.matchKinds.${kind}`),
      }),
    get pages() {
      return t('plants:discover.pages');
    },
  },
  mine: {
    get pages() {
      return t('plants:mine.pages');
    },
    get title() {
      return t('plants:mine.title');
    },
    get lead() {
      return t('plants:mine.lead');
    },
    get none() {
      return t('plants:mine.none');
    },
    get register() {
      return t('plants:mine.register');
    },
    columns: {
      get name() {
        return t('plants:mine.columns.name');
      },
      get generation() {
        return t('plants:mine.columns.generation');
      },
      get place() {
        return t('plants:mine.columns.place');
      },
      get registered() {
        return t('plants:mine.columns.registered');
      },
    },
    get previous() {
      return t('plants:mine.previous');
    },
    get next() {
      return t('plants:mine.next');
    },
    page: (page: number, pages: number) => t('plants:mine.page', { page, pages }),
    labels: {
      get all() {
        return t('plants:mine.labels.all');
      },
      one: (name: string) => t('plants:mine.labels.one', { name }),
      chosen: (n: number) => t('plants:mine.labels.chosen', { count: n }),
      get clear() {
        return t('plants:mine.labels.clear');
      },
    },
  },
  facts: {
    get title() {
      return t('plants:facts.title');
    },
    get scientificName() {
      return t('plants:facts.scientificName');
    },
    get owner() {
      return t('plants:facts.owner');
    },
    get generation() {
      return t('plants:facts.generation');
    },
    get propagation() {
      return t('plants:facts.propagation');
    },
    get parent() {
      return t('plants:facts.parent');
    },
    get location() {
      return t('plants:facts.location');
    },
    get privacy() {
      return t('plants:facts.privacy');
    },
    get hidden() {
      return t('plants:facts.hidden');
    },
    get registered() {
      return t('plants:facts.registered');
    },
    get block() {
      return t('plants:facts.block');
    },
    get wallet() {
      return t('plants:facts.wallet');
    },
    get root() {
      return t('plants:facts.root');
    },
    get parentPlant() {
      return t('plants:facts.parentPlant');
    },
    blockNumber: (index: number) => t('plants:facts.blockNumber', { index }),
    ownedBy: (name: string) => t('plants:facts.ownedBy', { name }),
    ids: {
      get plant() {
        return t('plants:facts.ids.plant');
      },
      get parent() {
        return t('plants:facts.ids.parent');
      },
      get owner() {
        return t('plants:facts.ids.owner');
      },
      get block() {
        return t('plants:facts.ids.block');
      },
    },
  },
  page: {
    get sections() {
      return t('plants:page.sections');
    },
    tabs: {
      get facts() {
        return t('plants:page.tabs.facts');
      },
      get lineage() {
        return t('plants:page.tabs.lineage');
      },
      get journey() {
        return t('plants:page.tabs.journey');
      },
      get environment() {
        return t('plants:page.tabs.environment');
      },
      get certificate() {
        return t('plants:page.tabs.certificate');
      },
    },
    get environmentSignedOut() {
      return t('plants:page.environmentSignedOut');
    },
    get signIn() {
      return t('plants:page.signIn');
    },
  },
};

/** The texts of ownership transfers: the plant page's form and owners, and the transfers page. */
export const TRANSFERS = {
  get title() {
    return t('plants:transfers.title');
  },
  get lead() {
    return t('plants:transfers.lead');
  },
  get incoming() {
    return t('plants:transfers.incoming');
  },
  get outgoing() {
    return t('plants:transfers.outgoing');
  },
  get noneIncoming() {
    return t('plants:transfers.noneIncoming');
  },
  get noneOutgoing() {
    return t('plants:transfers.noneOutgoing');
  },
  offer: (v: { from: string; name: string; to: string }) => t('plants:transfers.offer', v),
  get kindSeedLot() {
    return t('plants:transfers.kindSeedLot');
  },
  note: (message: string) => t('plants:transfers.note', { message }),
  status: {
    get pending() {
      return t('plants:transfers.status.pending');
    },
    get accepted() {
      return t('plants:transfers.status.accepted');
    },
    get declined() {
      return t('plants:transfers.status.declined');
    },
    get cancelled() {
      return t('plants:transfers.status.cancelled');
    },
  },
  get accept() {
    return t('plants:transfers.accept');
  },
  get decline() {
    return t('plants:transfers.decline');
  },
  get cancel() {
    return t('plants:transfers.cancel');
  },
  get all() {
    return t('plants:transfers.all');
  },
  acceptLabel: (v: { name: string; from: string }) => t('plants:transfers.acceptLabel', v),
  declineLabel: (v: { name: string; from: string }) => t('plants:transfers.declineLabel', v),
  cancelLabel: (v: { name: string; to: string }) => t('plants:transfers.cancelLabel', v),
  form: {
    get title() {
      return t('plants:transfers.form.title');
    },
    get lead() {
      return t('plants:transfers.form.lead');
    },
    get recipient() {
      return t('plants:transfers.form.recipient');
    },
    get recipientHint() {
      return t('plants:transfers.form.recipientHint');
    },
    get choose() {
      return t('plants:transfers.form.choose');
    },
    get chooseNone() {
      return t('plants:transfers.form.chooseNone');
    },
    you: (name: string) => t('plants:transfers.form.you', { name }),
    get findOrg() {
      return t('plants:transfers.form.findOrg');
    },
    get findOrgHint() {
      return t('plants:transfers.form.findOrgHint');
    },
    get results() {
      return t('plants:transfers.form.results');
    },
    chooseOrg: (name: string) => t('plants:transfers.form.chooseOrg', { name }),
    get noOrgs() {
      return t('plants:transfers.form.noOrgs');
    },
    earlier: (name: string) => t('plants:transfers.form.earlier', { name }),
    get byId() {
      return t('plants:transfers.form.byId');
    },
    chosen: (name: string) => t('plants:transfers.form.chosen', { name }),
    get unknownId() {
      return t('plants:transfers.form.unknownId');
    },
    get message() {
      return t('plants:transfers.form.message');
    },
    get submit() {
      return t('plants:transfers.form.submit');
    },
    get busy() {
      return t('plants:transfers.form.busy');
    },
    done: (to: string) => t('plants:transfers.form.done', { to }),
    pending: (to: string) => t('plants:transfers.form.pending', { to }),
    get lotTitle() {
      return t('plants:transfers.form.lotTitle');
    },
  },
  history: {
    get title() {
      return t('plants:transfers.history.title');
    },
    registered: (owner: string) => t('plants:transfers.history.registered', { owner }),
    moved: (v: { from: string; to: string }) => t('plants:transfers.history.moved', v),
    signed: (v: { given: string; accepted: string }) => t('plants:transfers.history.signed', v),
    forOrg: (v: { person: string; org: string }) => t('plants:transfers.history.forOrg', v),
    block: (index: number) => t('plants:transfers.history.block', { index }),
    get none() {
      return t('plants:transfers.history.none');
    },
    lotRecorded: (owner: string) => t('plants:transfers.history.lotRecorded', { owner }),
    lotMoved: (v: { from: string; to: string }) => t('plants:transfers.history.lotMoved', v),
    get lotNone() {
      return t('plants:transfers.history.lotNone');
    },
  },
};
