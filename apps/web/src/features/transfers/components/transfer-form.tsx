import { useState } from 'react';
import { Field } from '../../../components/field';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import type { User } from '../../auth/api/session';
import { TRANSFERS } from '../../plants/strings';
import { type TransferSubjectType, useAnswerTransfer, useProposeTransfer, useTransfers } from '../api/transfers';
import { RecipientPicker } from './recipient-picker';

const S = TRANSFERS.form;

/**
 * "Transfer this plant" or "Transfer this seed lot", for its giving side (the owner, or an owner or manager acting for
 * the owning organization): the recipient chosen among oneself, one's organizations, earlier parties and the
 * organizations found by name, or by an id typed by hand. A pending transfer is shown with its withdrawal instead.
 */
export function TransferForm({
  subjectType = 'plant',
  subjectId,
  ownerId,
  user,
}: {
  subjectType?: TransferSubjectType;
  subjectId: string;
  ownerId: string;
  user: User;
}) {
  const propose = useProposeTransfer();
  const cancel = useAnswerTransfer();
  const pending = useTransfers({ direction: 'outgoing', status: 'pending', subjectId });
  const [to, setTo] = useState('');
  const [message, setMessage] = useState('');
  const waiting = pending.data?.items[0];
  return (
    <section className="card" aria-labelledby="transfer-heading">
      <h2 id="transfer-heading">{subjectType === 'seed-lot' ? S.lotTitle : S.title}</h2>
      <p>{S.lead}</p>
      {waiting ? (
        <>
          <Notice>{S.pending(waiting.to.name)}</Notice>
          <ErrorAlert error={cancel.error} />
          <button
            type="button"
            className="secondary"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate({ transferId: waiting.id, answer: 'cancel' })}
          >
            {TRANSFERS.cancel}
          </button>
        </>
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            propose.mutate({
              subjectType,
              subjectId,
              to: to.trim(),
              ...(message.trim() ? { message: message.trim() } : {}),
            });
          }}
        >
          <ErrorAlert error={propose.error} />
          {propose.data && <Notice>{S.done(propose.data.to.name)}</Notice>}
          <RecipientPicker
            value={to}
            onChange={setTo}
            ownerId={ownerId}
            user={user}
            error={errorFor(propose.error, 'to.id')}
          />
          <Field
            label={S.message}
            name="message"
            maxLength={500}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={errorFor(propose.error, 'message')}
          />
          <button type="submit" disabled={propose.isPending || to.trim() === ''}>
            {propose.isPending ? S.busy : S.submit}
          </button>
        </form>
      )}
    </section>
  );
}
