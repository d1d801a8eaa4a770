import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/loans.json';

registerEnglish('loans', english);

type Season = 'spring' | 'summer' | 'autumn' | 'winter';
type Status = 'open' | 'overdue' | 'returned';

/** Every text of seed lending: the "Lend seeds" form, the loans page and the "Return seeds" form. */
export const LOANS = {
  lend: {
    get title() {
      return t('loans:lend.title');
    },
    get lead() {
      return t('loans:lend.lead');
    },
    get borrower() {
      return t('loans:lend.borrower');
    },
    get borrowerHint() {
      return t('loans:lend.borrowerHint');
    },
    borrowerNamed: (name: string) => t('loans:lend.borrowerNamed', { name }),
    get borrowerUnknown() {
      return t('loans:lend.borrowerUnknown');
    },
    amount: (unit: string) => t('loans:lend.amount', { unit }),
    get season() {
      return t('loans:lend.season');
    },
    get year() {
      return t('loans:lend.year');
    },
    get notes() {
      return t('loans:lend.notes');
    },
    get submit() {
      return t('loans:lend.submit');
    },
    get busy() {
      return t('loans:lend.busy');
    },
    done: (quantity: string, name: string, due: string) => t('loans:lend.done', { quantity, name, due }),
  },
  season: (season: Season) => t(`loans:seasons.${season}`),
  status: (status: Status) => t(`loans:status.${status}`),
  list: {
    get title() {
      return t('loans:list.title');
    },
    get lead() {
      return t('loans:list.lead');
    },
    get link() {
      return t('loans:list.link');
    },
    get sides() {
      return t('loans:list.sides');
    },
    get lent() {
      return t('loans:list.lent');
    },
    get borrowed() {
      return t('loans:list.borrowed');
    },
    get status() {
      return t('loans:list.status');
    },
    get all() {
      return t('loans:list.all');
    },
    get tableLabel() {
      return t('loans:list.tableLabel');
    },
    get none() {
      return t('loans:list.none');
    },
    get pager() {
      return t('loans:list.pager');
    },
    columns: {
      get seed() {
        return t('loans:list.columns.seed');
      },
      get borrower() {
        return t('loans:list.columns.borrower');
      },
      get lender() {
        return t('loans:list.columns.lender');
      },
      get quantity() {
        return t('loans:list.columns.quantity');
      },
      get due() {
        return t('loans:list.columns.due');
      },
      get status() {
        return t('loans:list.columns.status');
      },
    },
    returnThis: (seed: string) => t('loans:list.returnThis', { seed }),
  },
  returns: {
    get title() {
      return t('loans:return.title');
    },
    lead: (seed: string, name: string) => t('loans:return.lead', { seed, name }),
    get plants() {
      return t('loans:return.plants');
    },
    get noPlants() {
      return t('loans:return.noPlants');
    },
    get amount() {
      return t('loans:return.amount');
    },
    get unit() {
      return t('loans:return.unit');
    },
    get year() {
      return t('loans:return.year');
    },
    get notes() {
      return t('loans:return.notes');
    },
    get submit() {
      return t('loans:return.submit');
    },
    get busy() {
      return t('loans:return.busy');
    },
    done: (name: string) => t('loans:return.done', { name }),
    get newLot() {
      return t('loans:return.newLot');
    },
  },
};
