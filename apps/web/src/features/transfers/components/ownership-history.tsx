import { ErrorAlert, Loading } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { formatDateTime } from '../../../lib/format';
import { TRANSFERS } from '../../plants/strings';
import { type OwnershipChange, useOwnershipHistory } from '../api/transfers';

const S = TRANSFERS.history;

type Signer = OwnershipChange['givenBy'];

/** A plant's owners in order: who registered it, then each accepted transfer, with who signed for each side. */
export function OwnershipHistory({ plantId, ownerName }: { plantId: string; ownerName: string }) {
  const history = useOwnershipHistory(plantId);
  const items = history.data ?? [];
  const { nameOf } = usePeople(items.flatMap((c) => [c.givenBy.accountId, c.acceptedBy.accountId]));
  if (history.isPending) return <Loading />;
  if (history.error) return <ErrorAlert error={history.error} />;
  const signer = (s: Signer, party: { id: string; name: string }) => {
    const person = nameOf(s.accountId) ?? s.accountId;
    return s.organizationId === party.id ? S.forOrg({ person, org: party.name }) : person;
  };
  return (
    <section className="card" aria-labelledby="owners-heading">
      <h2 id="owners-heading">{S.title}</h2>
      <ol className="ownership-history">
        <li>{S.registered(items[0]?.from.name ?? ownerName)}</li>
        {items.map((c) => (
          <li key={c.transferId}>
            {S.moved({ from: c.from.name, to: c.to.name })} <time dateTime={c.at}>{formatDateTime(c.at)}</time>
            <br />
            <span className="hint">
              {S.signed({ given: signer(c.givenBy, c.from), accepted: signer(c.acceptedBy, c.to) })} ·{' '}
              {S.block(c.block.index)}
            </span>
          </li>
        ))}
      </ol>
      {items.length === 0 && <p className="hint">{S.none}</p>}
    </section>
  );
}
