import { lazy, Suspense, useState } from 'react';
import type { GeocodedPlace } from '../hooks/use-place-search';
import { COMMON } from '../lib/strings';
import { Field } from './field';
import { PlaceSearch } from './place-search';
import { Loading } from './status';

const WorldMap = lazy(() => import('./map/world-map').then((m) => ({ default: m.WorldMap })));

export interface LocationValue {
  latitude: string;
  longitude: string;
  city: string;
  country: string;
}

export const EMPTY_LOCATION: LocationValue = { latitude: '', longitude: '', city: '', country: '' };

/** The picker's value from a location as the API takes it (a kept write's body), empty where it has none. */
export function locationValueOf(location: unknown): LocationValue {
  const at = (location ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  return { latitude: text(at.latitude), longitude: text(at.longitude), city: text(at.city), country: text(at.country) };
}

const S = COMMON.location;

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
  /**
   * Whether to offer the search by name (`GET /api/geocode`): off where a search must not be tied to the record,
   * such as anonymous registration (the request would carry any session the browser has).
   */
  placeSearch?: boolean;
}

/** The form value of a place found by name: its point, and its name as the city for a town of the gazetteer. */
function fromPlace(place: GeocodedPlace): LocationValue {
  return {
    latitude: String(place.latitude),
    longitude: String(place.longitude),
    // A configured geocoder may answer a street or a building: its name is no city, so the service names one.
    city: place.source === 'gazetteer' ? place.name : '',
    country: place.country ?? '',
  };
}

/** A point found by name, picked on the map or typed, and optional city and country. */
export function LocationPicker({ value, onChange, errors = {}, legend = S.legend, placeSearch = true }: Props) {
  const point = toApiLocation(value);
  const set = (patch: Partial<LocationValue>) => onChange({ ...value, ...patch });
  // The map moves to a place found by name; a click on the map leaves the view where the person put it.
  const [found, setFound] = useState<{ lat: number; lon: number } | undefined>();
  return (
    <fieldset className="form">
      <legend>{legend}</legend>
      <p className="hint">{placeSearch ? S.hint : S.hintWithoutSearch}</p>
      {placeSearch ? (
        <PlaceSearch
          onChoose={(place) => {
            onChange(fromPlace(place));
            setFound({ lat: place.latitude, lon: place.longitude });
          }}
        />
      ) : (
        <p className="hint">{S.noSearch}</p>
      )}
      <Suspense fallback={<Loading />}>
        <WorldMap
          label={legend === S.legend ? S.map : `${S.map} (${legend})`}
          markers={point ? [{ lat: point.latitude, lon: point.longitude, label: S.picked, passive: true }] : []}
          onPick={(lat, lon) => set({ latitude: lat.toFixed(5), longitude: lon.toFixed(5) })}
          {...(found ? { center: found, zoom: 6 } : {})}
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
