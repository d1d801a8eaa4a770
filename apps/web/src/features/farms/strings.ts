import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/farms.json';

registerEnglish('farms', english);

/** Every text of the vertical-farm pages, in one place. */
export const FARMS = {
  get batchPages() {
    return t('farms:batchPages');
  },
  gate: {
    get heading() {
      return t('farms:gate.heading');
    },
    get title() {
      return t('farms:gate.title');
    },
    get lead() {
      return t('farms:gate.lead');
    },
    get body() {
      return t('farms:gate.body');
    },
    get who() {
      return t('farms:gate.who');
    },
    get recipes() {
      return t('farms:gate.recipes');
    },
  },
  list: {
    get title() {
      return t('farms:list.title');
    },
    get lead() {
      return t('farms:list.lead');
    },
    get none() {
      return t('farms:list.none');
    },
    columns: {
      get name() {
        return t('farms:list.columns.name');
      },
      get place() {
        return t('farms:list.columns.place');
      },
      get zones() {
        return t('farms:list.columns.zones');
      },
      get area() {
        return t('farms:list.columns.area');
      },
      get created() {
        return t('farms:list.columns.created');
      },
    },
    get recipes() {
      return t('farms:list.recipes');
    },
  },
  register: {
    get title() {
      return t('farms:register.title');
    },
    get name() {
      return t('farms:register.name');
    },
    get floorArea() {
      return t('farms:register.floorArea');
    },
    get levels() {
      return t('farms:register.levels');
    },
    get lighting() {
      return t('farms:register.lighting');
    },
    get climate() {
      return t('farms:register.climate');
    },
    get submit() {
      return t('farms:register.submit');
    },
    get busy() {
      return t('farms:register.busy');
    },
    get missingLocation() {
      return t('farms:register.missingLocation');
    },
  },
  lighting: {
    get led() {
      return t('farms:lighting.led');
    },
    get hps() {
      return t('farms:lighting.hps');
    },
    get fluorescent() {
      return t('farms:lighting.fluorescent');
    },
    get induction() {
      return t('farms:lighting.induction');
    },
    get hybrid() {
      return t('farms:lighting.hybrid');
    },
  },
  climate: {
    get hvac() {
      return t('farms:climate.hvac');
    },
    get 'hvac-dehumidification'() {
      return t('farms:climate.hvac-dehumidification');
    },
    get 'heat-pump'() {
      return t('farms:climate.heat-pump');
    },
    get evaporative() {
      return t('farms:climate.evaporative');
    },
    get passive() {
      return t('farms:climate.passive');
    },
  },
  methods: {
    get nft() {
      return t('farms:methods.nft');
    },
    get 'deep-water-culture'() {
      return t('farms:methods.deep-water-culture');
    },
    get aeroponics() {
      return t('farms:methods.aeroponics');
    },
    get 'ebb-and-flow'() {
      return t('farms:methods.ebb-and-flow');
    },
    get substrate() {
      return t('farms:methods.substrate');
    },
  },
  farm: {
    get facts() {
      return t('farms:farm.facts');
    },
    get owner() {
      return t('farms:farm.owner');
    },
    get someone() {
      return t('farms:farm.someone');
    },
    ids: {
      get farm() {
        return t('farms:farm.ids.farm');
      },
      get owner() {
        return t('farms:farm.ids.owner');
      },
    },
    get place() {
      return t('farms:farm.place');
    },
    get floorArea() {
      return t('farms:farm.floorArea');
    },
    get levels() {
      return t('farms:farm.levels');
    },
    get lighting() {
      return t('farms:farm.lighting');
    },
    get climate() {
      return t('farms:farm.climate');
    },
    get growingArea() {
      return t('farms:farm.growingArea');
    },
    get analytics() {
      return t('farms:farm.analytics');
    },
    get notOwner() {
      return t('farms:farm.notOwner');
    },
  },
  zones: {
    get title() {
      return t('farms:zones.title');
    },
    get none() {
      return t('farms:zones.none');
    },
    columns: {
      get name() {
        return t('farms:zones.columns.name');
      },
      get level() {
        return t('farms:zones.columns.level');
      },
      get area() {
        return t('farms:zones.columns.area');
      },
      get method() {
        return t('farms:zones.columns.method');
      },
      get sites() {
        return t('farms:zones.columns.sites');
      },
    },
    get add() {
      return t('farms:zones.add');
    },
    get name() {
      return t('farms:zones.name');
    },
    get level() {
      return t('farms:zones.level');
    },
    get area() {
      return t('farms:zones.area');
    },
    get method() {
      return t('farms:zones.method');
    },
    get capacity() {
      return t('farms:zones.capacity');
    },
    get submit() {
      return t('farms:zones.submit');
    },
    get busy() {
      return t('farms:zones.busy');
    },
  },
  batches: {
    get title() {
      return t('farms:batches.title');
    },
    get none() {
      return t('farms:batches.none');
    },
    columns: {
      get batch() {
        return t('farms:batches.columns.batch');
      },
      get zone() {
        return t('farms:batches.columns.zone');
      },
      get state() {
        return t('farms:batches.columns.state');
      },
      get started() {
        return t('farms:batches.columns.started');
      },
      get harvest() {
        return t('farms:batches.columns.harvest');
      },
    },
    get previous() {
      return t('farms:batches.previous');
    },
    get next() {
      return t('farms:batches.next');
    },
    page: (page: number, pages: number) => t('farms:batches.page', { page, pages }),
  },
  start: {
    get title() {
      return t('farms:start.title');
    },
    get needZone() {
      return t('farms:start.needZone');
    },
    get zone() {
      return t('farms:start.zone');
    },
    get recipe() {
      return t('farms:start.recipe');
    },
    get variety() {
      return t('farms:start.variety');
    },
    get plantCount() {
      return t('farms:start.plantCount');
    },
    get seedLot() {
      return t('farms:start.seedLot');
    },
    get supplier() {
      return t('farms:start.supplier');
    },
    get submit() {
      return t('farms:start.submit');
    },
    get busy() {
      return t('farms:start.busy');
    },
  },
  states: {
    get germinating() {
      return t('farms:states.germinating');
    },
    get growing() {
      return t('farms:states.growing');
    },
    get ready() {
      return t('farms:states.ready');
    },
    get harvested() {
      return t('farms:states.harvested');
    },
    get failed() {
      return t('farms:states.failed');
    },
  },
  batch: {
    title: (crop: string, variety: string) => t('farms:batch.title', { crop, variety }),
    get facts() {
      return t('farms:batch.facts');
    },
    get farm() {
      return t('farms:batch.farm');
    },
    get thisFarm() {
      return t('farms:batch.thisFarm');
    },
    get aPlant() {
      return t('farms:batch.aPlant');
    },
    ids: {
      get batch() {
        return t('farms:batch.ids.batch');
      },
      get farm() {
        return t('farms:batch.ids.farm');
      },
      get plant() {
        return t('farms:batch.ids.plant');
      },
    },
    get state() {
      return t('farms:batch.state');
    },
    get phase() {
      return t('farms:batch.phase');
    },
    daysInPhase: (phase: string, days: number) => t('farms:batch.daysInPhase', { phase, day: days + 1 }),
    get started() {
      return t('farms:batch.started');
    },
    get expected() {
      return t('farms:batch.expected');
    },
    get plants() {
      return t('farms:batch.plants');
    },
    get seed() {
      return t('farms:batch.seed');
    },
    get readings() {
      return t('farms:batch.readings');
    },
    get compliance() {
      return t('farms:batch.compliance');
    },
    readingsSummary: (count: number, pct: string) => t('farms:batch.readingsSummary', { count, pct }),
    get noReadings() {
      return t('farms:batch.noReadings');
    },
    get closed() {
      return t('farms:batch.closed');
    },
    get failureReason() {
      return t('farms:batch.failureReason');
    },
  },
  charts: {
    get title() {
      return t('farms:charts.title');
    },
    get lead() {
      return t('farms:charts.lead');
    },
    get none() {
      return t('farms:charts.none');
    },
    get time() {
      return t('farms:charts.time');
    },
    get target() {
      return t('farms:charts.target');
    },
    summary: (label: string, value: string, min: string, max: string, count: number) =>
      t('farms:charts.summary', { label, value, min, max, count }),
    noValues: (label: string) => t('farms:charts.noValues', { label }),
    shown: (shown: number, total: number) => t('farms:charts.shown', { shown, count: total }),
  },
  metrics: {
    temperatureC: {
      get label() {
        return t('farms:metrics.temperatureC.label');
      },
      get unit() {
        return t('farms:metrics.temperatureC.unit');
      },
    },
    humidityPct: {
      get label() {
        return t('farms:metrics.humidityPct.label');
      },
      get unit() {
        return t('farms:metrics.humidityPct.unit');
      },
    },
    co2Ppm: {
      get label() {
        return t('farms:metrics.co2Ppm.label');
      },
      get unit() {
        return t('farms:metrics.co2Ppm.unit');
      },
    },
    ppfd: {
      get label() {
        return t('farms:metrics.ppfd.label');
      },
      get unit() {
        return t('farms:metrics.ppfd.unit');
      },
    },
    ecMsCm: {
      get label() {
        return t('farms:metrics.ecMsCm.label');
      },
      get unit() {
        return t('farms:metrics.ecMsCm.unit');
      },
    },
    ph: {
      get label() {
        return t('farms:metrics.ph.label');
      },
      get unit() {
        return t('farms:metrics.ph.unit');
      },
    },
    waterTemperatureC: {
      get label() {
        return t('farms:metrics.waterTemperatureC.label');
      },
      get unit() {
        return t('farms:metrics.waterTemperatureC.unit');
      },
    },
    dissolvedOxygenMgL: {
      get label() {
        return t('farms:metrics.dissolvedOxygenMgL.label');
      },
      get unit() {
        return t('farms:metrics.dissolvedOxygenMgL.unit');
      },
    },
  },
  record: {
    get title() {
      return t('farms:record.title');
    },
    get lead() {
      return t('farms:record.lead');
    },
    get at() {
      return t('farms:record.at');
    },
    get atHint() {
      return t('farms:record.atHint');
    },
    get metrics() {
      return t('farms:record.metrics');
    },
    get submit() {
      return t('farms:record.submit');
    },
    get busy() {
      return t('farms:record.busy');
    },
    get needOne() {
      return t('farms:record.needOne');
    },
    get notNumber() {
      return t('farms:record.notNumber');
    },
    get checkFields() {
      return t('farms:record.checkFields');
    },
    atMost: (n: string) => t('farms:record.atMost', { n }),
    atLeast: (n: string) => t('farms:record.atLeast', { n }),
    saved: (inTarget: boolean) => (inTarget ? t('farms:record.savedInTarget') : t('farms:record.savedOutside')),
    get duplicate() {
      return t('farms:record.duplicate');
    },
  },
  alerts: {
    get title() {
      return t('farms:alerts.title');
    },
    get none() {
      return t('farms:alerts.none');
    },
    item: (label: string, value: string, min: string, max: string | null) =>
      max === null
        ? t('farms:alerts.itemBelow', { label, value, min })
        : t('farms:alerts.item', { label, value, min, max }),
    arrived: (count: number) => t('farms:alerts.arrived', { count }),
  },
  harvest: {
    get title() {
      return t('farms:harvest.title');
    },
    get yield() {
      return t('farms:harvest.yield');
    },
    get grade() {
      return t('farms:harvest.grade');
    },
    grades: {
      get premium() {
        return t('farms:harvest.grades.premium');
      },
      get 'grade-a'() {
        return t('farms:harvest.grades.grade-a');
      },
      get 'grade-b'() {
        return t('farms:harvest.grades.grade-b');
      },
      get processing() {
        return t('farms:harvest.grades.processing');
      },
    },
    get notes() {
      return t('farms:harvest.notes');
    },
    get submit() {
      return t('farms:harvest.submit');
    },
    get busy() {
      return t('farms:harvest.busy');
    },
    done: (kg: string) => t('farms:harvest.done', { kg }),
    get early() {
      return t('farms:harvest.early');
    },
    get block() {
      return t('farms:harvest.block');
    },
    get closed() {
      return t('farms:harvest.closed');
    },
  },
  fail: {
    get ask() {
      return t('farms:fail.ask');
    },
    get title() {
      return t('farms:fail.title');
    },
    get warning() {
      return t('farms:fail.warning');
    },
    get reason() {
      return t('farms:fail.reason');
    },
    get confirm() {
      return t('farms:fail.confirm');
    },
    get busy() {
      return t('farms:fail.busy');
    },
    get cancel() {
      return t('farms:fail.cancel');
    },
  },
  recipes: {
    get title() {
      return t('farms:recipes.title');
    },
    get lead() {
      return t('farms:recipes.lead');
    },
    version: (v: number) => t('farms:recipes.version', { v }),
    get derivedFrom() {
      return t('farms:recipes.derivedFrom');
    },
    get shipped() {
      return t('farms:recipes.shipped');
    },
    cycle: (days: number) => t('farms:recipes.cycle', { days }),
    columns: {
      get phase() {
        return t('farms:recipes.columns.phase');
      },
      get days() {
        return t('farms:recipes.columns.days');
      },
      get ppfd() {
        return t('farms:recipes.columns.ppfd');
      },
      get hours() {
        return t('farms:recipes.columns.hours');
      },
      get dli() {
        return t('farms:recipes.columns.dli');
      },
      get temp() {
        return t('farms:recipes.columns.temp');
      },
      get rh() {
        return t('farms:recipes.columns.rh');
      },
      get co2() {
        return t('farms:recipes.columns.co2');
      },
      get ec() {
        return t('farms:recipes.columns.ec');
      },
      get ph() {
        return t('farms:recipes.columns.ph');
      },
    },
    get sources() {
      return t('farms:recipes.sources');
    },
    outcomes: (batches: number, harvested: number, rate: string) =>
      t('farms:recipes.outcomes', { count: batches, harvested, rate }),
    get derive() {
      return t('farms:recipes.derive');
    },
    get parent() {
      return t('farms:recipes.parent');
    },
    get name() {
      return t('farms:recipes.name');
    },
    days: (phase: string) => t('farms:recipes.days', { phase }),
    get source() {
      return t('farms:recipes.source');
    },
    get submit() {
      return t('farms:recipes.submit');
    },
    get busy() {
      return t('farms:recipes.busy');
    },
    created: (name: string, version: number) => t('farms:recipes.created', { name, version }),
    get crop() {
      return t('farms:recipes.crop');
    },
  },
  analytics: {
    title: (farm: string) => t('farms:analytics.title', { farm }),
    get lead() {
      return t('farms:analytics.lead');
    },
    get totals() {
      return t('farms:analytics.totals');
    },
    get yieldPerM2() {
      return t('farms:analytics.yieldPerM2');
    },
    get yieldPerM2Hint() {
      return t('farms:analytics.yieldPerM2Hint');
    },
    get yieldByCrop() {
      return t('farms:analytics.yieldByCrop');
    },
    get yieldKg() {
      return t('farms:analytics.yieldKg');
    },
    get yieldPerM2InUse() {
      return t('farms:analytics.yieldPerM2InUse');
    },
    get cycleDays() {
      return t('farms:analytics.cycleDays');
    },
    get compliance() {
      return t('farms:analytics.compliance');
    },
    get success() {
      return t('farms:analytics.success');
    },
    get utilisation() {
      return t('farms:analytics.utilisation');
    },
    get harvested() {
      return t('farms:analytics.harvested');
    },
    get byCrop() {
      return t('farms:analytics.byCrop');
    },
    get cycleByCrop() {
      return t('farms:analytics.cycleByCrop');
    },
    get complianceByRecipe() {
      return t('farms:analytics.complianceByRecipe');
    },
    get zoneUse() {
      return t('farms:analytics.zoneUse');
    },
    get crop() {
      return t('farms:analytics.crop');
    },
    get recipe() {
      return t('farms:analytics.recipe');
    },
    get zone() {
      return t('farms:analytics.zone');
    },
    get none() {
      return t('farms:analytics.none');
    },
    get back() {
      return t('farms:analytics.back');
    },
  },
};
