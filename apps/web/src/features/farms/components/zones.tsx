import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Loading } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatNumber } from '../../../lib/format';
import { useAddZone, useZones, type ZoneInput } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.zones;
type Method = ZoneInput['growingMethod'];

/** A farm's zones: level, area, method and plant sites in use. */
export function ZoneList({ farmId }: { farmId: string }) {
  const zones = useZones(farmId);
  if (zones.isPending) return <Loading />;
  if (zones.error) return <ErrorAlert error={zones.error} />;
  if (zones.data.length === 0) return <p>{S.none}</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{S.title}</caption>
        <thead>
          <tr>
            <th scope="col">{S.columns.name}</th>
            <th scope="col">{S.columns.level}</th>
            <th scope="col">{S.columns.area}</th>
            <th scope="col">{S.columns.method}</th>
            <th scope="col">{S.columns.sites}</th>
          </tr>
        </thead>
        <tbody>
          {zones.data.map((z) => (
            <tr key={z.id}>
              <td>{z.name}</td>
              <td>{z.level}</td>
              <td>{formatNumber(z.areaM2)} m²</td>
              <td>{FARMS.methods[z.growingMethod]}</td>
              <td>
                {z.plantsGrowing} / {z.capacity}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Adds a zone to a farm of the signed-in manager. */
export function AddZoneForm({ farmId }: { farmId: string }) {
  const add = useAddZone(farmId);
  const [name, setName] = useState('');
  const [level, setLevel] = useState('1');
  const [area, setArea] = useState('');
  const [method, setMethod] = useState<Method>('nft');
  const [capacity, setCapacity] = useState('');
  const err = add.error;
  return (
    <form
      className="card form"
      aria-labelledby="add-zone"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate(
          { name, level: Number(level), areaM2: Number(area), growingMethod: method, capacity: Number(capacity) },
          {
            onSuccess: () => {
              setName('');
              setArea('');
              setCapacity('');
            },
          },
        );
      }}
    >
      <h2 id="add-zone">{S.add}</h2>
      <ErrorAlert error={err} />
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
          label={S.level}
          name="level"
          type="number"
          min={1}
          max={100}
          required
          value={level}
          onChange={(e) => setLevel(e.target.value)}
          error={errorFor(err, 'level')}
        />
        <Field
          label={S.area}
          name="areaM2"
          type="number"
          min={0.1}
          step="any"
          required
          value={area}
          onChange={(e) => setArea(e.target.value)}
          error={errorFor(err, 'areaM2')}
        />
        <Field
          label={S.capacity}
          name="capacity"
          type="number"
          min={1}
          step={1}
          required
          value={capacity}
          onChange={(e) => setCapacity(e.target.value)}
          error={errorFor(err, 'capacity')}
        />
      </div>
      <SelectField
        label={S.method}
        name="growingMethod"
        value={method}
        onChange={(v) => setMethod(v as Method)}
        options={Object.entries(FARMS.methods).map(([value, label]) => ({ value, label }))}
        error={errorFor(err, 'growingMethod')}
      />
      <button type="submit" disabled={add.isPending}>
        {add.isPending ? S.busy : S.submit}
      </button>
    </form>
  );
}
