import { lazy, Suspense } from 'react';
import { Field } from './field';
import { Loading } from './status';

const WorldMap = lazy(() => import('./map/world-map').then((m) => ({ default: m.WorldMap })));

export interface LocationValue {
  latitude: string;
  longitude: string;
  city: string;
  country: string;
}

export const EMPTY_LOCATION: LocationValue = { latitude: '', longitude: '', city: '', country: '' };

const S = {
  legend: 'Location',
  hint: 'Click the map to pick the point, or type it.',
  map: 'Map: click to pick the location',
  latitude: 'Latitude',
  longitude: 'Longitude',
  city: 'City (optional)',
  country: 'Country code (optional)',
  countryHint: 'Two letters, e.g. NL',
  picked: 'Picked location',
} as const;

/** The location as the API wants it, or null while latitude or longitude is not a number. */
export function toApiLocation(v: LocationValue) {
  const latitude = Number(v.latitude);
  const longitude = Number(v.longitude);
  if (v.latitude.trim() === '' || v.longitude.trim() === '' || Number.isNaN(latitude) || Number.isNaN(longitude)) {
    return null;
  }
  return {
    latitude,
    longitude,
    ...(v.city.trim() ? { city: v.city.trim() } : {}),
    ...(v.country.trim() ? { country: v.country.trim().toUpperCase() } : {}),
  };
}

interface Props {
  value: LocationValue;
  onChange: (value: LocationValue) => void;
  /** API error messages by field name (latitude, longitude, city, country). */
  errors?: Partial<Record<keyof LocationValue, string | undefined>>;
  /** The group's name, when a form has more than one location. */
  legend?: string;
}

/** A point picked on the map or typed, and optional city and country. */
export function LocationPicker({ value, onChange, errors = {}, legend = S.legend }: Props) {
  const point = toApiLocation(value);
  const set = (patch: Partial<LocationValue>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="form">
      <legend>{legend}</legend>
      <p className="hint">{S.hint}</p>
      <Suspense fallback={<Loading />}>
        <WorldMap
          label={legend === S.legend ? S.map : `${S.map} (${legend})`}
          markers={point ? [{ lat: point.latitude, lon: point.longitude, label: S.picked }] : []}
          onPick={(lat, lon) => set({ latitude: lat.toFixed(5), longitude: lon.toFixed(5) })}
        />
      </Suspense>
      <div className="row">
        <Field
          label={S.latitude}
          name="latitude"
          inputMode="decimal"
          required
          value={value.latitude}
          onChange={(e) => set({ latitude: e.target.value })}
          error={errors.latitude}
        />
        <Field
          label={S.longitude}
          name="longitude"
          inputMode="decimal"
          required
          value={value.longitude}
          onChange={(e) => set({ longitude: e.target.value })}
          error={errors.longitude}
        />
      </div>
      <div className="row">
        <Field
          label={S.city}
          name="city"
          value={value.city}
          onChange={(e) => set({ city: e.target.value })}
          error={errors.city}
        />
        <Field
          label={S.country}
          name="country"
          maxLength={2}
          hint={S.countryHint}
          value={value.country}
          onChange={(e) => set({ country: e.target.value })}
          error={errors.country}
        />
      </div>
    </fieldset>
  );
}
