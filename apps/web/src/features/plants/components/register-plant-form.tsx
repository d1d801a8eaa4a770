import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Field } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, locationValueOf, toApiLocation } from '../../../components/location-picker';
import { type PrivacyLevel, PrivacyLevelField } from '../../../components/privacy-level-field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { outboxEditOf } from '../../outbox/api/outbox';
import { KeptNotice } from '../../outbox/components/kept-notice';
import { type Plant, useRegisterPlant } from '../api/plants';
import { PLANTS } from '../strings';

const S = PLANTS.register;

/** The form's fields from a kept registration's body (its "Edit" in the outbox). */
function fieldsOf(body: Record<string, unknown> | undefined) {
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  return {
    commonName: text(body?.commonName),
    scientificName: text(body?.scientificName),
    location: body ? locationValueOf(body.location) : EMPTY_LOCATION,
    privacyLevel: (typeof body?.privacyLevel === 'string' ? body.privacyLevel : 'city') as PrivacyLevel,
  };
}

/**
 * Registers a plant owned by the signed-in person, or by the organization the tab acts for (its name left out: the
 * API fills it in); opened from a refused outbox item, with that item's fields.
 */
export function RegisterPlantForm({
  owner,
  onRegistered,
}: {
  owner: { id: string; name?: string };
  onRegistered: (plant: { id: string }) => void;
}) {
  const register = useRegisterPlant();
  const edit = outboxEditOf(useLocation().state, 'plant');
  const navigate = useNavigate();
  const [initial] = useState(() => fieldsOf(edit?.body));
  const [commonName, setCommonName] = useState(initial.commonName);
  const [scientificName, setScientificName] = useState(initial.scientificName);
  const [location, setLocation] = useState(initial.location);
  const [privacyLevel, setPrivacyLevel] = useState<PrivacyLevel>(initial.privacyLevel);
  const [problem, setProblem] = useState<string | null>(null);
  const error = problem ?? register.error;
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        const point = toApiLocation(location);
        setProblem(point ? null : S.missingLocation);
        if (!point) return;
        register.mutate(
          {
            commonName,
            ...(scientificName.trim() ? { scientificName: scientificName.trim() } : {}),
            location: point,
            owner,
            privacyLevel,
            replaces: edit?.id,
          },
          {
            onSuccess: (result) => {
              if (result.status === 'sent') return onRegistered(result.data);
              // The refused item it was edited from is gone: the form is a plain one again.
              if (edit) navigate('.', { replace: true, state: null });
              // Kept on this device: the form is ready for the next plant (at the same place, most likely).
              setCommonName('');
              setScientificName('');
            },
          },
        );
      }}
    >
      <ErrorAlert error={error} />
      <KeptNotice result={register.data} />
      <Field
        label={S.commonName}
        name="commonName"
        required
        maxLength={200}
        value={commonName}
        onChange={(e) => setCommonName(e.target.value)}
        error={errorFor(register.error, 'commonName')}
      />
      <Field
        label={S.scientificName}
        name="scientificName"
        maxLength={200}
        value={scientificName}
        onChange={(e) => setScientificName(e.target.value)}
        error={errorFor(register.error, 'scientificName')}
      />
      <LocationPicker
        value={location}
        onChange={setLocation}
        errors={{
          latitude: errorFor(register.error, 'latitude'),
          longitude: errorFor(register.error, 'longitude'),
          city: errorFor(register.error, 'city'),
          country: errorFor(register.error, 'country'),
        }}
      />
      <PrivacyLevelField
        value={privacyLevel}
        onChange={setPrivacyLevel}
        error={errorFor(register.error, 'privacyLevel')}
      />
      <button type="submit" disabled={register.isPending}>
        {register.isPending ? S.busy : S.submit}
      </button>
    </form>
  );
}

/** The location form value of a plant's stored location (for an offspring at the same place). */
export function locationOf(plant: Plant) {
  const l = plant.location;
  if (!l) return EMPTY_LOCATION;
  return {
    latitude: String(l.latitude),
    longitude: String(l.longitude),
    city: l.city ?? '',
    country: l.country ?? '',
  };
}
