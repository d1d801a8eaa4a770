import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Loading } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { useRecipes, useStartBatch, useZones } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.start;

/** Starts a batch in a zone of the farm with a recipe and a seed lot. */
export function StartBatchForm({ farmId, onStarted }: { farmId: string; onStarted: (batch: { id: string }) => void }) {
  const zones = useZones(farmId);
  const recipes = useRecipes();
  const start = useStartBatch();
  const [zoneId, setZoneId] = useState('');
  const [recipeId, setRecipeId] = useState('');
  const [variety, setVariety] = useState('');
  const [plantCount, setPlantCount] = useState('');
  const [seedLot, setSeedLot] = useState('');
  const [supplier, setSupplier] = useState('');
  if (zones.isPending || recipes.isPending) return <Loading />;
  if (zones.error || recipes.error) return <ErrorAlert error={zones.error ?? recipes.error} />;
  if (zones.data.length === 0) return <p>{S.needZone}</p>;
  const zone = zoneId || zones.data[0]!.id;
  const recipeList = recipes.data.items;
  const recipe = recipeList.find((r) => r.id === recipeId) ?? recipeList[0];
  const err = start.error;
  return (
    <form
      className="card form"
      aria-labelledby="start-batch"
      onSubmit={(e) => {
        e.preventDefault();
        if (!recipe) return;
        start.mutate(
          {
            farmId,
            zoneId: zone,
            recipeId: recipe.id,
            crop: recipe.crop,
            variety,
            plantCount: Number(plantCount),
            seedSource: { type: 'seed-lot', seedLot, ...(supplier.trim() ? { supplier: supplier.trim() } : {}) },
          },
          { onSuccess: onStarted },
        );
      }}
    >
      <h2 id="start-batch">{S.title}</h2>
      <ErrorAlert error={err} />
      <SelectField
        label={S.zone}
        name="zoneId"
        value={zone}
        onChange={setZoneId}
        options={zones.data.map((z) => ({ value: z.id, label: `${z.name} (${z.plantsGrowing} / ${z.capacity})` }))}
        error={errorFor(err, 'zoneId')}
      />
      <SelectField
        label={S.recipe}
        name="recipeId"
        value={recipe?.id ?? ''}
        onChange={setRecipeId}
        options={recipeList.map((r) => ({ value: r.id, label: `${r.name} (${FARMS.recipes.version(r.version)})` }))}
        error={errorFor(err, 'recipeId')}
      />
      <div className="row">
        <Field
          label={S.variety}
          name="variety"
          required
          maxLength={120}
          value={variety}
          onChange={(e) => setVariety(e.target.value)}
          error={errorFor(err, 'variety')}
        />
        <Field
          label={S.plantCount}
          name="plantCount"
          type="number"
          min={1}
          step={1}
          required
          value={plantCount}
          onChange={(e) => setPlantCount(e.target.value)}
          error={errorFor(err, 'plantCount')}
        />
      </div>
      <div className="row">
        <Field
          label={S.seedLot}
          name="seedLot"
          required
          maxLength={120}
          value={seedLot}
          onChange={(e) => setSeedLot(e.target.value)}
          error={errorFor(err, 'seedLot')}
        />
        <Field
          label={S.supplier}
          name="supplier"
          maxLength={200}
          value={supplier}
          onChange={(e) => setSupplier(e.target.value)}
          error={errorFor(err, 'supplier')}
        />
      </div>
      <button type="submit" disabled={start.isPending || !recipe}>
        {start.isPending ? S.busy : S.submit}
      </button>
    </form>
  );
}
