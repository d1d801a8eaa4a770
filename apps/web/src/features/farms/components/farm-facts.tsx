import { RecordIds } from '../../../components/record-ids';
import { usePeople } from '../../../hooks/use-people';
import { formatNumber } from '../../../lib/format';
import { countOf } from '../../../lib/plural';
import type { Farm } from '../api/farms';
import { FARMS } from '../strings';
import { farmPlace } from './farm-list';

const S = FARMS.farm;

/** A farm's profile. */
export function FarmFacts({ farm }: { farm: Farm }) {
  const { nameOf } = usePeople([farm.ownerId]);
  return (
    <section className="card" aria-labelledby="farm-facts">
      <h2 id="farm-facts">{S.facts}</h2>
      <dl>
        <dt>{S.owner}</dt>
        <dd>{nameOf(farm.ownerId) ?? S.someone}</dd>
        <dt>{S.place}</dt>
        <dd>{farmPlace(farm)}</dd>
        <dt>{S.floorArea}</dt>
        <dd>{formatNumber(farm.floorAreaM2)} m²</dd>
        <dt>{S.growingArea}</dt>
        <dd>
          {formatNumber(farm.growingAreaM2)} m² ({countOf(farm.zoneCount, 'zone')})
        </dd>
        <dt>{S.levels}</dt>
        <dd>{farm.levels}</dd>
        <dt>{S.lighting}</dt>
        <dd>{FARMS.lighting[farm.lightingSystem]}</dd>
        <dt>{S.climate}</dt>
        <dd>{FARMS.climate[farm.climateSystem]}</dd>
      </dl>
      <RecordIds
        ids={[
          { label: S.ids.farm, value: farm.id },
          { label: S.ids.owner, value: farm.ownerId },
        ]}
      />
    </section>
  );
}
