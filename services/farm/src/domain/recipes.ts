import type { FarmCrop, PhaseTargets, RecipePhaseName } from '@rootline/contracts/farm';

/** Keys of the cited sources; docs/farm.md lists each with its figures. */
export const SOURCES = {
  cornellLettuce:
    'Brechner, M. & Both, A.J. (2013) Hydroponic Lettuce Handbook, Cornell University CEA Program: DLI 17 mol/m²/d, ' +
    '24 °C day / 19 °C night, EC 1.2 mS/cm, pH 5.8, CO2 enrichment to 1000 ppm, seedlings 11 days then 24 days in the pond',
  foods2022:
    'Foods 2022, 11(9), 1327, Table 1 (PMC9103178): basil 15 h at 300 (200–400) µmol/m²/s, 21 ± 2 °C day / 17 °C night, ' +
    'RH 65 ± 5 %, pH 6.8 ± 0.4, EC 1.2 ± 0.2 mS/cm; Brussels sprouts (Brassica oleracea) 12 h at 300 ± 15 µmol/m²/s, ' +
    '24 °C day / 18 °C night ± 2, RH 70–80 %, pH 6.0 ± 0.2, EC 1.8 ± 0.2 mS/cm',
  gerovac2016:
    'Gerovac, J.R. et al. (2016) HortScience 51(5): 497–503, Brassica microgreens under sole-source LEDs: 16 h ' +
    'photoperiod at 105–315 µmol/m²/s (DLI 6–18 mol/m²/d)',
  ncsuAlbion2020:
    'Appl. Sci. 2020, 10(3), 1044 (NC State): ‘Albion’ strawberry indoors at 250–450 µmol/m²/s, 12 h photoperiod, ' +
    '25.7 °C, RH 73 ± 5 %',
  osuStrawberry:
    'Ohio State University CEAC, strawberry fertigation: full-strength solution EC ≈ 1.0 dS/m, solution pH 5.5–6.0',
  dliFormula: 'DLI (mol/m²/d) = PPFD (µmol/m²/s) × 3600 s/h × light hours ÷ 1,000,000',
} as const;

/** A shipped recipe: phases with their targets, in order. */
export interface RecipeSeed {
  id: string;
  name: string;
  crop: FarmCrop;
  phases: { phase: RecipePhaseName; days: number; targets: PhaseTargets }[];
  sources: string[];
}

const r = (min: number, max: number) => ({ min, max });

/** Lettuce after the Cornell handbook: DLI 17 over 16 h is 295 µmol/m²/s, hence 270–320. */
const lettuce: RecipeSeed = {
  id: 'rcp_lettuce0butterhead01',
  name: 'Butterhead lettuce, deep water culture (Cornell CEA)',
  crop: 'lettuce',
  sources: [SOURCES.cornellLettuce, SOURCES.dliFormula],
  phases: [
    {
      phase: 'germination',
      days: 3,
      targets: {
        ppfd: r(40, 60),
        photoperiodHours: 24,
        dayTemperatureC: 20,
        nightTemperatureC: 20,
        humidityPct: r(80, 95),
        co2Ppm: r(400, 1200),
        ecMsCm: r(0, 0.6),
        ph: r(5.6, 6.0),
      },
    },
    {
      phase: 'seedling',
      days: 8,
      targets: {
        ppfd: r(180, 220),
        photoperiodHours: 24,
        dayTemperatureC: 24,
        nightTemperatureC: 19,
        humidityPct: r(50, 70),
        co2Ppm: r(800, 1200),
        ecMsCm: r(1.1, 1.3),
        ph: r(5.6, 6.0),
      },
    },
    {
      phase: 'vegetative',
      days: 24,
      targets: {
        ppfd: r(270, 320),
        photoperiodHours: 16,
        dayTemperatureC: 24,
        nightTemperatureC: 19,
        humidityPct: r(50, 70),
        co2Ppm: r(800, 1200),
        ecMsCm: r(1.1, 1.3),
        ph: r(5.6, 6.0),
      },
    },
  ],
};

const basilTargets: PhaseTargets = {
  ppfd: r(200, 400),
  photoperiodHours: 15,
  dayTemperatureC: 21,
  nightTemperatureC: 17,
  humidityPct: r(60, 70),
  co2Ppm: r(800, 1200),
  ecMsCm: r(1.0, 1.4),
  ph: r(6.4, 7.2),
};

const basil: RecipeSeed = {
  id: 'rcp_basil0genovese00001',
  name: 'Sweet basil, NFT',
  crop: 'basil',
  sources: [SOURCES.foods2022, SOURCES.cornellLettuce, SOURCES.dliFormula],
  phases: [
    { phase: 'germination', days: 5, targets: { ...basilTargets, ppfd: r(100, 200), humidityPct: r(80, 95) } },
    { phase: 'seedling', days: 10, targets: { ...basilTargets, ppfd: r(150, 250) } },
    { phase: 'vegetative', days: 20, targets: basilTargets },
  ],
};

const brassica: PhaseTargets = {
  ppfd: r(285, 315),
  photoperiodHours: 12,
  dayTemperatureC: 24,
  nightTemperatureC: 18,
  humidityPct: r(70, 80),
  co2Ppm: r(800, 1200),
  ecMsCm: r(1.6, 2.0),
  ph: r(5.8, 6.2),
};

/** Kale from the Brassica oleracea column (Brussels sprouts, the same species) of Foods 2022. */
const kale: RecipeSeed = {
  id: 'rcp_kale0curly0000000001',
  name: 'Curly kale, ebb-and-flow',
  crop: 'kale',
  sources: [SOURCES.foods2022, SOURCES.cornellLettuce, SOURCES.dliFormula],
  phases: [
    { phase: 'germination', days: 4, targets: { ...brassica, ppfd: r(100, 150), ecMsCm: r(0, 1.0) } },
    { phase: 'seedling', days: 10, targets: { ...brassica, ppfd: r(200, 250), ecMsCm: r(1.2, 1.6) } },
    { phase: 'vegetative', days: 28, targets: brassica },
  ],
};

/** Microgreens: light from Gerovac et al.; climate and solution from the Brassica column of Foods 2022. */
const microgreens: RecipeSeed = {
  id: 'rcp_microgreens0mix00001',
  name: 'Brassica microgreens, substrate trays',
  crop: 'microgreens',
  sources: [SOURCES.gerovac2016, SOURCES.foods2022, SOURCES.cornellLettuce, SOURCES.dliFormula],
  phases: [
    // Seeds germinate stacked in the dark: PPFD 0 is the target.
    {
      phase: 'germination',
      days: 3,
      targets: { ...brassica, ppfd: r(0, 0), photoperiodHours: 0, humidityPct: r(80, 95) },
    },
    { phase: 'vegetative', days: 9, targets: { ...brassica, ppfd: r(105, 315), photoperiodHours: 16 } },
  ],
};

const strawberryClimate = {
  dayTemperatureC: 24,
  nightTemperatureC: 15,
  humidityPct: r(68, 78),
  co2Ppm: r(800, 1200),
  ecMsCm: r(0.8, 1.2),
  ph: r(5.5, 6.0),
};

/** Day-neutral strawberries (e.g. ‘Albion’) in gutters; fruiting continues after the first harvestable truss. */
const strawberry: RecipeSeed = {
  id: 'rcp_strawberry0albion001',
  name: 'Day-neutral strawberry (‘Albion’), substrate gutters',
  crop: 'strawberry',
  sources: [SOURCES.ncsuAlbion2020, SOURCES.osuStrawberry, SOURCES.cornellLettuce, SOURCES.dliFormula],
  phases: [
    { phase: 'vegetative', days: 28, targets: { ...strawberryClimate, ppfd: r(250, 350), photoperiodHours: 12 } },
    { phase: 'flowering', days: 21, targets: { ...strawberryClimate, ppfd: r(337, 450), photoperiodHours: 12 } },
    { phase: 'fruiting', days: 35, targets: { ...strawberryClimate, ppfd: r(337, 450), photoperiodHours: 12 } },
  ],
};

/** The recipes Rootline ships (version 1, no parent, no author). */
export const SHIPPED_RECIPES: readonly RecipeSeed[] = [lettuce, basil, kale, microgreens, strawberry];
