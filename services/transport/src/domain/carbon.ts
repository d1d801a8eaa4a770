import type { TransportMode } from '@rootline/contracts/transport';

/** One emission factor: kg CO2e per tonne-km of goods and per vehicle-km of the trip, with where it comes from. */
export interface EmissionFactor {
  perTonneKm: number;
  perVehicleKm: number;
  source: string;
}

const UK_2025 = 'UK Government GHG Conversion Factors for Company Reporting 2025 (DESNZ), flat file';

/**
 * The one emission-factor table (kg CO2e, well-to-tank excluded), with the figures as the cited 2025 flat file
 * publishes them (five decimals; checked row by row, see docs/transport.md). Freight modes are per tonne-km of
 * goods; car and vans per vehicle-km, the whole trip being charged to the load it carried. Human-powered modes have
 * no direct emissions.
 */
export const EMISSION_FACTORS: Readonly<Record<TransportMode, EmissionFactor>> = {
  none: { perTonneKm: 0, perVehicleKm: 0, source: 'nothing travelled' },
  walking: { perTonneKm: 0, perVehicleKm: 0, source: 'human-powered: no direct emissions' },
  bicycle: { perTonneKm: 0, perVehicleKm: 0, source: 'human-powered: no direct emissions' },
  'cargo-bike': { perTonneKm: 0, perVehicleKm: 0, source: 'human-powered: no direct emissions' },
  'electric-van': {
    perTonneKm: 0,
    perVehicleKm: 0.06976,
    source: `${UK_2025}, freighting goods, vans, average (up to 3.5 tonnes), battery electric vehicle, per km`,
  },
  'diesel-van': {
    perTonneKm: 0,
    perVehicleKm: 0.25561,
    source: `${UK_2025}, freighting goods, vans, average (up to 3.5 tonnes), diesel, per km`,
  },
  car: {
    perTonneKm: 0,
    perVehicleKm: 0.16725,
    source: `${UK_2025}, business travel- land, cars (by size), average car, unknown fuel, per km`,
  },
  'hgv-diesel': {
    perTonneKm: 0.10163,
    perVehicleKm: 0,
    source: `${UK_2025}, freighting goods, HGV (all diesel), all HGVs, average laden, per tonne-km`,
  },
  'hgv-refrigerated': {
    perTonneKm: 0.11894,
    perVehicleKm: 0,
    source: `${UK_2025}, freighting goods, HGV refrigerated (all diesel), all HGVs, average laden, per tonne-km`,
  },
  rail: {
    perTonneKm: 0.02779,
    perVehicleKm: 0,
    source: `${UK_2025}, freighting goods, rail, freight train, per tonne-km`,
  },
  ship: {
    perTonneKm: 0.01612,
    perVehicleKm: 0,
    source: `${UK_2025}, freighting goods, cargo ship, container ship, average, per tonne-km`,
  },
  air: {
    perTonneKm: 1.27835,
    perVehicleKm: 0,
    source: `${UK_2025}, freighting goods, freight flights, short-haul to/from UK, with RF, per tonne-km`,
  },
};

/**
 * Conventional logistics, the baseline a delivery is compared with: the same mass driven the average distance food
 * travels from producer to retail (1,640 km: Weber & Matthews, "Food-Miles and the Relative Climate Impacts of Food
 * Choices in the United States", Environ. Sci. Technol. 42(10), 2008) by diesel HGV (factor above).
 */
export const CONVENTIONAL_DELIVERY_KM = 1640;
export const CONVENTIONAL_MODE: TransportMode = 'hgv-diesel';
export const BASELINE_METHOD =
  `delivered mass × ${CONVENTIONAL_DELIVERY_KM} km (average producer-to-retail food delivery, Weber & Matthews ` +
  '2008) × diesel HGV factor (UK conversion factors 2025)';

/** Equivalents of saved carbon: an average car's km (factor above) and the yearly uptake of one urban tree. */
export const CAR_KG_CO2E_PER_KM = EMISSION_FACTORS.car.perVehicleKm;
/** US EPA Greenhouse Gas Equivalencies Calculator: an urban tree seedling grown 10 years takes up 0.060 t CO2. */
export const TREE_KG_CO2_PER_YEAR = 60 / 10;

/** Rounds to grams, so stored and summed figures do not carry float noise. */
export function roundKg(kg: number): number {
  return Math.round(kg * 1000) / 1000;
}

/** kg CO2e of one movement: per vehicle-km for the trip plus per tonne-km for the goods. */
export function emissionsKg(mode: TransportMode, distanceKm: number, massKg: number): number {
  const f = EMISSION_FACTORS[mode];
  return roundKg(f.perVehicleKm * distanceKm + f.perTonneKm * (massKg / 1000) * distanceKm);
}

/** kg CO2e of delivering a mass the conventional way (see CONVENTIONAL_DELIVERY_KM). */
export function conventionalKg(massKg: number): number {
  return emissionsKg(CONVENTIONAL_MODE, CONVENTIONAL_DELIVERY_KM, massKg);
}

/** Mass in kg of a quantity measured by weight; undefined for counts (seeds, plants, packets). */
export function quantityKg(q: { value: number; unit: string } | null | undefined): number | undefined {
  if (!q) return undefined;
  if (q.unit === 'kg') return q.value;
  if (q.unit === 'g') return q.value / 1000;
  return undefined;
}
