import { ErrorAlert, Loading } from '../../../components/status';
import { usePeople } from '../../../hooks/use-people';
import { formatDateTime } from '../../../lib/format';
import { TRANSFERS } from '../../plants/strings';
import { type OwnershipChange, type TransferSubjectType, useOwnershipHistory } from '../api/transfers';

const S = TRANSFERS.history;

type Signer = OwnershipChange['givenBy'];

/**
 * The owners of a plant or a seed lot in order: who registered (recorded) it, then each accepted transfer, with who
 * signed for each side.
 */
export function OwnershipHistory({
  subjectType = 'plant',
  subjectId,
  ownerName,
}: {
  subjectType?: TransferSubjectType;
  subjectId: string;
  ownerName: string;
}) {
  const history = useOwnershipHistory(subjectType, subjectId);
  const lot = subjectType === 'seed-lot';
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
        <li>{(lot ? S.lotRecorded : S.registered)(items[0]?.from.name ?? ownerName)}</li>
        {items.map((c) => (
          <li key={c.transferId}>
            {(lot ? S.lotMoved : S.moved)({ from: c.from.name, to: c.to.name })}{' '}
            <time dateTime={c.at}>{formatDateTime(c.at)}</time>
            <br />
            <span className="hint">
              {S.signed({ given: signer(c.givenBy, c.from), accepted: signer(c.acceptedBy, c.to) })} ·{' '}
              {S.block(c.block.index)}
            </span>
          </li>
        ))}
      </ol>
      {items.length === 0 && <p className="hint">{lot ? S.lotNone : S.none}</p>}
    </section>
  );
}
