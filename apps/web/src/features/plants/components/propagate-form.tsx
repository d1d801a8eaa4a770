import { useState } from 'react';
import { Link } from 'react-router';
import { SelectField } from '../../../components/field';
import { LocationPicker, toApiLocation } from '../../../components/location-picker';
import { type PrivacyLevel, PrivacyLevelField } from '../../../components/privacy-level-field';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { type Plant, PROPAGATION_TYPES, type PropagationType, useClonePlant } from '../api/plants';
import { PLANTS } from '../strings';
import { locationOf } from './register-plant-form';

const S = PLANTS.propagate;

/** Records an offspring of the plant (clone, seed, cutting…), owned by the signed-in person. */
export function PropagateForm({ parent, owner }: { parent: Plant; owner: { id: string; name?: string } }) {
  const clone = useClonePlant();
  const [type, setType] = useState<PropagationType>('cutting');
  const [location, setLocation] = useState(() => locationOf(parent));
  const [privacyLevel, setPrivacyLevel] = useState<PrivacyLevel>(parent.privacyLevel);
  return (
    <section className="card" aria-labelledby="propagate-heading">
      <h2 id="propagate-heading">{S.title}</h2>
      <p>{S.lead}</p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const point = toApiLocation(location);
          if (!point) return;
          clone.mutate({
            parentPlantId: parent.id,
            propagationType: type,
            newPlant: { location: point, owner, privacyLevel },
          });
        }}
      >
        <ErrorAlert error={clone.error} />
        {clone.data && (
          <Notice>
            {S.done} <Link to={`/plants/${clone.data.id}`}>{clone.data.id}</Link>
          </Notice>
        )}
        <SelectField
          label={S.type}
          name="propagationType"
          value={type}
          onChange={(v) => setType(v as PropagationType)}
          options={PROPAGATION_TYPES.map((t) => ({ value: t, label: S.types[t] }))}
          error={errorFor(clone.error, 'propagationType')}
        />
        <p className="hint">{S.sameLocation}</p>
        <LocationPicker value={location} onChange={setLocation} />
        <PrivacyLevelField value={privacyLevel} onChange={setPrivacyLevel} />
        <button type="submit" disabled={clone.isPending}>
          {clone.isPending ? S.busy : S.submit}
        </button>
      </form>
    </section>
  );
}
