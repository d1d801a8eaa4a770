import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, toApiLocation } from '../../../components/location-picker';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { type FarmInput, useRegisterFarm } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.register;
type Lighting = FarmInput['lightingSystem'];
type Climate = FarmInput['climateSystem'];

/** Registers a farm owned by the signed-in farm manager. */
export function RegisterFarmForm({ onRegistered }: { onRegistered: (farm: { id: string }) => void }) {
  const register = useRegisterFarm();
  const [name, setName] = useState('');
  const [floorArea, setFloorArea] = useState('');
  const [levels, setLevels] = useState('1');
  const [lighting, setLighting] = useState<Lighting>('led');
  const [climate, setClimate] = useState<Climate>('hvac');
  const [location, setLocation] = useState(EMPTY_LOCATION);
  const [problem, setProblem] = useState<string | null>(null);
  const err = register.error;
  return (
    <form
      className="card form"
      aria-labelledby="register-farm"
      onSubmit={(e) => {
        e.preventDefault();
        const point = toApiLocation(location);
        setProblem(point ? null : S.missingLocation);
        if (!point) return;
        register.mutate(
          {
            name,
            location: point,
            floorAreaM2: Number(floorArea),
            levels: Number(levels),
            lightingSystem: lighting,
            climateSystem: climate,
          },
          { onSuccess: onRegistered },
        );
      }}
    >
      <h2 id="register-farm">{S.title}</h2>
      <ErrorAlert error={problem ?? err} />
      <Field
        label={S.name}
        name="name"
        required
        maxLength={200}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errorFor(err, 'name')}
      />
      <div className="row">
        <Field
          label={S.floorArea}
          name="floorAreaM2"
          type="number"
          min={1}
          step="any"
          required
          value={floorArea}
          onChange={(e) => setFloorArea(e.target.value)}
          error={errorFor(err, 'floorAreaM2')}
        />
        <Field
          label={S.levels}
          name="levels"
          type="number"
          min={1}
          step={1}
          required
          value={levels}
          onChange={(e) => setLevels(e.target.value)}
          error={errorFor(err, 'levels')}
        />
      </div>
      <div className="row">
        <SelectField
          label={S.lighting}
          name="lightingSystem"
          value={lighting}
          onChange={(v) => setLighting(v as Lighting)}
          options={Object.entries(FARMS.lighting).map(([value, label]) => ({ value, label }))}
          error={errorFor(err, 'lightingSystem')}
        />
        <SelectField
          label={S.climate}
          name="climateSystem"
          value={climate}
          onChange={(v) => setClimate(v as Climate)}
          options={Object.entries(FARMS.climate).map(([value, label]) => ({ value, label }))}
          error={errorFor(err, 'climateSystem')}
        />
      </div>
      <LocationPicker
        value={location}
        onChange={setLocation}
        errors={{
          latitude: errorFor(err, 'latitude'),
          longitude: errorFor(err, 'longitude'),
          city: errorFor(err, 'city'),
          country: errorFor(err, 'country'),
        }}
      />
      <button type="submit" disabled={register.isPending}>
        {register.isPending ? S.busy : S.submit}
      </button>
    </form>
  );
}
