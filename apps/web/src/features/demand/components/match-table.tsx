import { RecordIds } from '../../../components/record-ids';
import { usePeople } from '../../../hooks/use-people';
import { formatNumber } from '../../../lib/format';
import type { Match } from '../api/demand';
import { DEMAND } from '../strings';

const S = DEMAND.supply;

/**
 * Matches as a table: quantity, distance, price and the household, which a grower sees as "hidden" (the API
 * gives it only to the household and an ADMIN); the grower sees the distance as the 5 km band the API gives
 * ("within 10 km"), never as a finer figure. `withCrop` adds the crop, for matches of several commitments.
 */
export function MatchTable({
  matches,
  caption,
  withCrop = false,
}: {
  matches: Match[];
  caption: string;
  withCrop?: boolean;
}) {
  // The households' names, for the household itself and an ADMIN (growers get no id), in one read.
  const { nameOf } = usePeople(matches.map((m) => m.consumerId));
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {withCrop && <th scope="col">{S.columns.crop}</th>}
            <th scope="col">{S.columns.kg}</th>
            <th scope="col">{S.columns.distance}</th>
            <th scope="col">{S.columns.price}</th>
            <th scope="col">{S.columns.household}</th>
          </tr>
        </thead>
        <tbody>
          {matches.map((m) => (
            <tr key={m.id}>
              {withCrop && <td>{m.crop}</td>}
              <td>{formatNumber(m.quantityKg, 2)} kg</td>
              <td>
                {m.consumerId === null
                  ? S.within(formatNumber(m.distanceKm, 0))
                  : `${formatNumber(m.distanceKm, 1)} km`}
              </td>
              <td>
                {formatNumber(m.price / 100, 2)} {m.currency}
              </td>
              <td>
                {m.consumerId === null ? (
                  S.hidden
                ) : (
                  <>
                    {nameOf(m.consumerId) ?? S.aHousehold}
                    <RecordIds ids={[{ label: S.householdId, value: m.consumerId }]} />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
