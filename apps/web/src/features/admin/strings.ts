import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/admin.json';

registerEnglish('admin', english);

/** Every text of the administration pages, in one place. */
export const ADMIN = {
  nav: {
    get label() {
      return t('admin:nav.label');
    },
    get users() {
      return t('admin:nav.users');
    },
    get agents() {
      return t('admin:nav.agents');
    },
    get health() {
      return t('admin:nav.health');
    },
  },
  only: {
    get title() {
      return t('admin:only.title');
    },
    get lead() {
      return t('admin:only.lead');
    },
    yourRole: (role: string) => t('admin:only.yourRole', { role }),
    get instead() {
      return t('admin:only.instead');
    },
    get account() {
      return t('admin:only.account');
    },
    get mine() {
      return t('admin:only.mine');
    },
    get discover() {
      return t('admin:only.discover');
    },
    get ask() {
      return t('admin:only.ask');
    },
  },
  users: {
    get title() {
      return t('admin:users.title');
    },
    get lead() {
      return t('admin:users.lead');
    },
    get search() {
      return t('admin:users.search');
    },
    get roleFilter() {
      return t('admin:users.roleFilter');
    },
    get anyRole() {
      return t('admin:users.anyRole');
    },
    get submit() {
      return t('admin:users.submit');
    },
    get clear() {
      return t('admin:users.clear');
    },
    found: (total: number) => t('admin:users.found', { count: total }),
    get none() {
      return t('admin:users.none');
    },
    columns: {
      get name() {
        return t('admin:users.columns.name');
      },
      get email() {
        return t('admin:users.columns.email');
      },
      get role() {
        return t('admin:users.columns.role');
      },
      get verified() {
        return t('admin:users.columns.verified');
      },
      get created() {
        return t('admin:users.columns.created');
      },
    },
    get yes() {
      return t('admin:users.yes');
    },
    get no() {
      return t('admin:users.no');
    },
    get you() {
      return t('admin:users.you');
    },
    newRole: (name: string) => t('admin:users.newRole', { name }),
    get change() {
      return t('admin:users.change');
    },
    changeFor: (name: string) => t('admin:users.changeFor', { name }),
    get find() {
      return t('admin:users.find');
    },
    changed: (name: string, role: string) => t('admin:users.changed', { name, role }),
  },
  agents: {
    get title() {
      return t('admin:agents.title');
    },
    get lead() {
      return t('admin:agents.lead');
    },
    get lineage() {
      return t('admin:agents.lineage');
    },
    get tracker() {
      return t('admin:agents.tracker');
    },
    get state() {
      return t('admin:agents.state');
    },
    states: {
      get stopped() {
        return t('admin:agents.states.stopped');
      },
      get running() {
        return t('admin:agents.states.running');
      },
      get paused() {
        return t('admin:agents.states.paused');
      },
    } as Record<string, string>,
    get since() {
      return t('admin:agents.since');
    },
    get interval() {
      return t('admin:agents.interval');
    },
    seconds: (s: number) =>
      s >= 120 ? t('admin:agents.minutes', { count: Math.round(s / 60) }) : t('admin:agents.seconds', { count: s }),
    get runs() {
      return t('admin:agents.runs');
    },
    get lastRun() {
      return t('admin:agents.lastRun');
    },
    get never() {
      return t('admin:agents.never');
    },
    duration: (ms: number) => t('admin:agents.duration', { ms }),
    get nextRun() {
      return t('admin:agents.nextRun');
    },
    actions: {
      get start() {
        return t('admin:agents.actions.start');
      },
      get pause() {
        return t('admin:agents.actions.pause');
      },
      get resume() {
        return t('admin:agents.actions.resume');
      },
      get stop() {
        return t('admin:agents.actions.stop');
      },
      get run() {
        return t('admin:agents.actions.run');
      },
    } as Record<string, string>,
    actionFor: (visible: string, agent: string) => t('admin:agents.actionFor', { visible, agent: agent.toLowerCase() }),
    onlyPossible: (state: string) => t('admin:agents.onlyPossible', { state }),
    done: (agent: string, state: string) => t('admin:agents.done', { agent, state }),
    get network() {
      return t('admin:agents.network');
    },
    get totalPlants() {
      return t('admin:agents.totalPlants');
    },
    get rootPlants() {
      return t('admin:agents.rootPlants');
    },
    get propagatedPlants() {
      return t('admin:agents.propagatedPlants');
    },
    get maxGeneration() {
      return t('admin:agents.maxGeneration');
    },
    get anomalies() {
      return t('admin:agents.anomalies');
    },
    anomalyKinds: {
      get 'child-before-parent'() {
        return t('admin:agents.anomalyKinds.child-before-parent');
      },
      get 'generation-jump'() {
        return t('admin:agents.anomalyKinds.generation-jump');
      },
      get 'distant-offspring'() {
        return t('admin:agents.anomalyKinds.distant-offspring');
      },
      get 'orphaned-parent'() {
        return t('admin:agents.anomalyKinds.orphaned-parent');
      },
    } as Record<string, string>,
    get anyKind() {
      return t('admin:agents.anyKind');
    },
    get kind() {
      return t('admin:agents.kind');
    },
    get plants() {
      return t('admin:agents.plants');
    },
    get reason() {
      return t('admin:agents.reason');
    },
    get noAnomalies() {
      return t('admin:agents.noAnomalies');
    },
    get patterns() {
      return t('admin:agents.patterns');
    },
    patternKinds: {
      get 'high-carbon'() {
        return t('admin:agents.patternKinds.high-carbon');
      },
      get 'cold-chain-break'() {
        return t('admin:agents.patternKinds.cold-chain-break');
      },
      get 'long-detour'() {
        return t('admin:agents.patternKinds.long-detour');
      },
      get 'empty-run'() {
        return t('admin:agents.patternKinds.empty-run');
      },
    } as Record<string, string>,
    get event() {
      return t('admin:agents.event');
    },
    get kg() {
      return t('admin:agents.kg');
    },
    get noPatterns() {
      return t('admin:agents.noPatterns');
    },
    get counts() {
      return t('admin:agents.counts');
    },
    get eventsScanned() {
      return t('admin:agents.eventsScanned');
    },
    get patternsFound() {
      return t('admin:agents.patternsFound');
    },
    get eventsNow() {
      return t('admin:agents.eventsNow');
    },
    get savings() {
      return t('admin:agents.savings');
    },
    get delivered() {
      return t('admin:agents.delivered');
    },
    get actual() {
      return t('admin:agents.actual');
    },
    get baseline() {
      return t('admin:agents.baseline');
    },
    get saved() {
      return t('admin:agents.saved');
    },
    equivalents: (carKm: string, treeYears: string) => t('admin:agents.equivalents', { carKm, treeYears }),
    noSaving: (kg: string) => t('admin:agents.noSaving', { kg }),
    get plant() {
      return t('admin:agents.plant');
    },
    get parent() {
      return t('admin:agents.parent');
    },
    plantLink: (role: string, id: string) => t('admin:agents.plantLink', { role, id }),
    get factors() {
      return t('admin:agents.factors');
    },
    get factor() {
      return t('admin:agents.factor');
    },
    get value() {
      return t('admin:agents.value');
    },
    get source() {
      return t('admin:agents.source');
    },
  },
  health: {
    get title() {
      return t('admin:health.title');
    },
    get lead() {
      return t('admin:health.lead');
    },
    get refresh() {
      return t('admin:health.refresh');
    },
    checkedAt: (time: string) => t('admin:health.checkedAt', { time }),
    get gateway() {
      return t('admin:health.gateway');
    },
    get gatewayLive() {
      return t('admin:health.gatewayLive');
    },
    get gatewayDown() {
      return t('admin:health.gatewayDown');
    },
    get ready() {
      return t('admin:health.ready');
    },
    get notReady() {
      return t('admin:health.notReady');
    },
    get component() {
      return t('admin:health.component');
    },
    get status() {
      return t('admin:health.status');
    },
    get version() {
      return t('admin:health.version');
    },
    get database() {
      return t('admin:health.database');
    },
    databases: {
      get ok() {
        return t('admin:health.databases.ok');
      },
      get none() {
        return t('admin:health.databases.none');
      },
    } as Record<string, string>,
    get isReady() {
      return t('admin:health.isReady');
    },
    get missing() {
      return t('admin:health.missing');
    },
    get failing() {
      return t('admin:health.failing');
    },
  },
  services: {
    get title() {
      return t('admin:services.title');
    },
    get lead() {
      return t('admin:services.lead');
    },
    overall: (status: string) => t('admin:services.overall', { status }),
    statuses: {
      get ok() {
        return t('admin:services.statuses.ok');
      },
      get degraded() {
        return t('admin:services.statuses.degraded');
      },
      get down() {
        return t('admin:services.statuses.down');
      },
    } as Record<string, string>,
    get table() {
      return t('admin:services.table');
    },
    columns: {
      get service() {
        return t('admin:services.columns.service');
      },
      get status() {
        return t('admin:services.columns.status');
      },
      get instances() {
        return t('admin:services.columns.instances');
      },
      get latency() {
        return t('admin:services.columns.latency');
      },
      get version() {
        return t('admin:services.columns.version');
      },
      get database() {
        return t('admin:services.columns.database');
      },
      get backlog() {
        return t('admin:services.columns.backlog');
      },
    },
    databases: {
      get ok() {
        return t('admin:services.databases.ok');
      },
      get error() {
        return t('admin:services.databases.error');
      },
      get none() {
        return t('admin:services.databases.none');
      },
    } as Record<string, string>,
    ms: (ms: string) => t('admin:services.ms', { ms }),
    seconds: (s: string) => t('admin:services.seconds', { s }),
    get none() {
      return t('admin:services.none');
    },
    get platform() {
      return t('admin:services.platform');
    },
    get database() {
      return t('admin:services.database');
    },
    get bus() {
      return t('admin:services.bus');
    },
    busFacts: (instances: number, latency: string) => t('admin:services.busFacts', { count: instances, latency }),
    get outbox() {
      return t('admin:services.outbox');
    },
    outboxFacts: (backlog: number, oldest: string) =>
      backlog === 0 ? t('admin:services.outboxEmpty') : t('admin:services.outboxFacts', { count: backlog, oldest }),
    get consumer() {
      return t('admin:services.consumer');
    },
    consumerFacts: (last: string, worst: string) => t('admin:services.consumerFacts', { last, worst }),
    checkedAt: (time: string) => t('admin:services.checkedAt', { time }),
  },
};
