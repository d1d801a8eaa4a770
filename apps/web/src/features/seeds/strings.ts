import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/seeds.json';

/** Why an imported row was refused (the API's `reason` codes). */
export type ImportReason = keyof typeof english.csv.reasons;

registerEnglish('seeds', english);

/** Every text of the seed inventory pages (seed lots, their germination tests and viability), in one place. */
export const SEEDS = {
  list: {
    get title() {
      return t('seeds:list.title');
    },
    get lead() {
      return t('seeds:list.lead');
    },
    get filters() {
      return t('seeds:list.filters');
    },
    get crop() {
      return t('seeds:list.crop');
    },
    get year() {
      return t('seeds:list.year');
    },
    get lowOnly() {
      return t('seeds:list.lowOnly');
    },
    get apply() {
      return t('seeds:list.apply');
    },
    get tableLabel() {
      return t('seeds:list.tableLabel');
    },
    columns: {
      get lot() {
        return t('seeds:list.columns.lot');
      },
      get year() {
        return t('seeds:list.columns.year');
      },
      get quantity() {
        return t('seeds:list.columns.quantity');
      },
      get viability() {
        return t('seeds:list.columns.viability');
      },
    },
    get none() {
      return t('seeds:list.none');
    },
    found: (count: number) => t('seeds:list.found', { count }),
    get pager() {
      return t('seeds:list.pager');
    },
    get mine() {
      return t('seeds:list.mine');
    },
    get low() {
      return t('seeds:list.low');
    },
  },
  form: {
    get title() {
      return t('seeds:form.title');
    },
    get crop() {
      return t('seeds:form.crop');
    },
    get cropHint() {
      return t('seeds:form.cropHint');
    },
    get variety() {
      return t('seeds:form.variety');
    },
    get year() {
      return t('seeds:form.year');
    },
    get amount() {
      return t('seeds:form.amount');
    },
    get unit() {
      return t('seeds:form.unit');
    },
    get parents() {
      return t('seeds:form.parents');
    },
    get parentsHint() {
      return t('seeds:form.parentsHint');
    },
    get place() {
      return t('seeds:form.place');
    },
    get temperature() {
      return t('seeds:form.temperature');
    },
    get humidity() {
      return t('seeds:form.humidity');
    },
    get container() {
      return t('seeds:form.container');
    },
    get notes() {
      return t('seeds:form.notes');
    },
    get submit() {
      return t('seeds:form.submit');
    },
    get busy() {
      return t('seeds:form.busy');
    },
    added: (name: string) => t('seeds:form.added', { name }),
  },
  units: {
    get seeds() {
      return t('seeds:units.seeds');
    },
    get grams() {
      return t('seeds:units.grams');
    },
    get packets() {
      return t('seeds:units.packets');
    },
  },
  lot: {
    get notFound() {
      return t('seeds:lot.notFound');
    },
    get facts() {
      return t('seeds:lot.facts');
    },
    get owner() {
      return t('seeds:lot.owner');
    },
    get parents() {
      return t('seeds:lot.parents');
    },
    get noParents() {
      return t('seeds:lot.noParents');
    },
    get storage() {
      return t('seeds:lot.storage');
    },
    get noStorage() {
      return t('seeds:lot.noStorage');
    },
    get notes() {
      return t('seeds:lot.notes');
    },
    discarded: (when: string) => t('seeds:lot.discarded', { when }),
    get publicOnly() {
      return t('seeds:lot.publicOnly');
    },
    get viability() {
      return t('seeds:lot.viability');
    },
    expected: (percent: string) => t('seeds:lot.expected', { percent }),
    get unknown() {
      return t('seeds:lot.unknown');
    },
    basisTest: (date: string, percent: string) => t('seeds:lot.basisTest', { date, percent }),
    basisAge: (years: string, life: string) => t('seeds:lot.basisAge', { years, life }),
    get basisNone() {
      return t('seeds:lot.basisNone');
    },
    get lowWarning() {
      return t('seeds:lot.lowWarning');
    },
    get source() {
      return t('seeds:lot.source');
    },
    get discard() {
      return t('seeds:lot.discard');
    },
    get discardedToast() {
      return t('seeds:lot.discardedToast');
    },
  },
  tests: {
    get title() {
      return t('seeds:tests.title');
    },
    get tableLabel() {
      return t('seeds:tests.tableLabel');
    },
    columns: {
      get date() {
        return t('seeds:tests.columns.date');
      },
      get sown() {
        return t('seeds:tests.columns.sown');
      },
      get germinated() {
        return t('seeds:tests.columns.germinated');
      },
      get rate() {
        return t('seeds:tests.columns.rate');
      },
      get method() {
        return t('seeds:tests.columns.method');
      },
    },
    get none() {
      return t('seeds:tests.none');
    },
    get pager() {
      return t('seeds:tests.pager');
    },
    get add() {
      return t('seeds:tests.add');
    },
    get date() {
      return t('seeds:tests.date');
    },
    get sown() {
      return t('seeds:tests.sown');
    },
    get germinated() {
      return t('seeds:tests.germinated');
    },
    get method() {
      return t('seeds:tests.method');
    },
    get notes() {
      return t('seeds:tests.notes');
    },
    get submit() {
      return t('seeds:tests.submit');
    },
    get busy() {
      return t('seeds:tests.busy');
    },
    recorded: (percent: string) => t('seeds:tests.recorded', { percent }),
  },
  methods: {
    get 'paper-towel'() {
      return t('seeds:methods.paper-towel');
    },
    get 'between-paper'() {
      return t('seeds:methods.between-paper');
    },
    get sand() {
      return t('seeds:methods.sand');
    },
    get soil() {
      return t('seeds:methods.soil');
    },
    get tetrazolium() {
      return t('seeds:methods.tetrazolium');
    },
    get other() {
      return t('seeds:methods.other');
    },
  },
  csv: {
    earlier: {
      get title() {
        return t('seeds:csv.earlier.title');
      },
      get lead() {
        return t('seeds:csv.earlier.lead');
      },
      get none() {
        return t('seeds:csv.earlier.none');
      },
      get state() {
        return t('seeds:csv.earlier.state');
      },
      get all() {
        return t('seeds:csv.earlier.all');
      },
      get file() {
        return t('seeds:csv.earlier.file');
      },
      get when() {
        return t('seeds:csv.earlier.when');
      },
      get kind() {
        return t('seeds:csv.earlier.kind');
      },
      get rows() {
        return t('seeds:csv.earlier.rows');
      },
      get checkOnly() {
        return t('seeds:csv.earlier.checkOnly');
      },
      counts: (dryRun: boolean, created: string, unchanged: string, failed: string) =>
        t(dryRun ? 'seeds:csv.earlier.wouldCounts' : 'seeds:csv.earlier.counts', { created, unchanged, failed }),
      get report() {
        return t('seeds:csv.earlier.report');
      },
      reportOf: (file: string, when: string) => t('seeds:csv.earlier.reportOf', { file, when }),
      shown: (file: string) => t('seeds:csv.earlier.shown', { file }),
      get pager() {
        return t('seeds:csv.earlier.pager');
      },
      get tableLabel() {
        return t('seeds:csv.earlier.tableLabel');
      },
    },
    get title() {
      return t('seeds:csv.title');
    },
    get lead() {
      return t('seeds:csv.lead');
    },
    get open() {
      return t('seeds:csv.open');
    },
    get export() {
      return t('seeds:csv.export');
    },
    get exporting() {
      return t('seeds:csv.exporting');
    },
    get kind() {
      return t('seeds:csv.kind');
    },
    get file() {
      return t('seeds:csv.file');
    },
    get columns() {
      return t('seeds:csv.columns');
    },
    get columnsLead() {
      return t('seeds:csv.columnsLead');
    },
    get column() {
      return t('seeds:csv.column');
    },
    get field() {
      return t('seeds:csv.field');
    },
    get ignore() {
      return t('seeds:csv.ignore');
    },
    get check() {
      return t('seeds:csv.check');
    },
    get import() {
      return t('seeds:csv.import');
    },
    get again() {
      return t('seeds:csv.again');
    },
    get dryRun() {
      return t('seeds:csv.dryRun');
    },
    get progress() {
      return t('seeds:csv.progress');
    },
    get created() {
      return t('seeds:csv.created');
    },
    get wouldCreate() {
      return t('seeds:csv.wouldCreate');
    },
    get unchanged() {
      return t('seeds:csv.unchanged');
    },
    get failed() {
      return t('seeds:csv.failed');
    },
    get report() {
      return t('seeds:csv.report');
    },
    get line() {
      return t('seeds:csv.line');
    },
    get problem() {
      return t('seeds:csv.problem');
    },
    get noProblems() {
      return t('seeds:csv.noProblems');
    },
    get truncated() {
      return t('seeds:csv.truncated');
    },
    get pager() {
      return t('seeds:csv.pager');
    },
    exported: (name: string) => t('seeds:csv.exported', { name }),
    fileHint: (size: number) => t('seeds:csv.fileHint', { size }),
    progressText: (rows: string, read: string, total: string) => t('seeds:csv.progressText', { rows, read, total }),
    kinds: {
      get 'seed-lots'() {
        return t('seeds:csv.kinds.seed-lots');
      },
      get plants() {
        return t('seeds:csv.kinds.plants');
      },
    },
    state: (state: 'queued' | 'running' | 'done' | 'failed') => t(`seeds:csv.state.${state}`),
    reason: (reason: ImportReason, field: string, column: string) =>
      t(`seeds:csv.reasons.${reason}`, { field, column }),
  },
  handoff: {
    get title() {
      return t('seeds:handoff.title');
    },
    get lead() {
      return t('seeds:handoff.lead');
    },
    get peer() {
      return t('seeds:handoff.peer');
    },
    get noPeers() {
      return t('seeds:handoff.noPeers');
    },
    amount: (unit: string) => t('seeds:handoff.amount', { unit }),
    get recipient() {
      return t('seeds:handoff.recipient');
    },
    get recipientHint() {
      return t('seeds:handoff.recipientHint');
    },
    get submit() {
      return t('seeds:handoff.submit');
    },
    get busy() {
      return t('seeds:handoff.busy');
    },
    done: (quantity: string, recipient: string, peer: string) => t('seeds:handoff.done', { quantity, recipient, peer }),
    get idLabel() {
      return t('seeds:handoff.idLabel');
    },
    get history() {
      return t('seeds:handoff.history');
    },
    outgoing: (quantity: string, recipient: string, peer: string, when: string) =>
      t('seeds:handoff.outgoing', { quantity, recipient, peer, when }),
    incoming: (quantity: string, peer: string, when: string) => t('seeds:handoff.incoming', { quantity, peer, when }),
  },
  receive: {
    get title() {
      return t('seeds:receive.title');
    },
    get lead() {
      return t('seeds:receive.lead');
    },
    get peer() {
      return t('seeds:receive.peer');
    },
    get handoffId() {
      return t('seeds:receive.handoffId');
    },
    get handoffIdHint() {
      return t('seeds:receive.handoffIdHint');
    },
    get submit() {
      return t('seeds:receive.submit');
    },
    get busy() {
      return t('seeds:receive.busy');
    },
    done: (quantity: string) => t('seeds:receive.done', { quantity }),
    get open() {
      return t('seeds:receive.open');
    },
  },
  receivedFrom: {
    get label() {
      return t('seeds:receivedFrom.label');
    },
    text: (lot: string, peer: string) => t('seeds:receivedFrom.text', { lot, peer }),
  },
};
