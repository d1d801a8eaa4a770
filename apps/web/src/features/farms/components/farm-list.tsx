import { Link } from 'react-router';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { type Farm, useMyFarms } from '../api/farms';
import { FARMS } from '../strings';

const S = FARMS.list;

/** Where a farm is, in words. */
export function farmPlace(farm: Farm): string {
  const l = farm.location;
  const named = [l.city, l.country].filter(Boolean).join(', ');
  return named || `${formatNumber(l.latitude, 3)}, ${formatNumber(l.longitude, 3)}`;
}

/** The signed-in manager's farms. */
export function FarmList() {
  const farms = useMyFarms();
  if (farms.isPending) return <Loading />;
  if (farms.error) return <ErrorAlert error={farms.error} />;
  if (farms.data.length === 0) return <p>{S.none}</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{S.title}</caption>
        <thead>
          <tr>
            <th scope="col">{S.columns.name}</th>
            <th scope="col">{S.columns.place}</th>
            <th scope="col">{S.columns.zones}</th>
            <th scope="col">{S.columns.area}</th>
            <th scope="col">{S.columns.created}</th>
          </tr>
        </thead>
        <tbody>
          {farms.data.map((f) => (
            <tr key={f.id}>
              <td>
                <Link to={`/vertical-farm/${f.id}`}>{f.name}</Link>
              </td>
              <td>{farmPlace(f)}</td>
              <td>{f.zoneCount}</td>
              <td>{formatNumber(f.growingAreaM2)} m²</td>
              <td>{formatDateTime(f.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
