import { useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import type { User } from '../../auth/api/session';
import { useMyOrganizations } from '../../organizations/api/organizations';
import { TRANSFERS } from '../../plants/strings';
import { type TransferSubjectType, useAnswerTransfer, useProposeTransfer, useTransfers } from '../api/transfers';

const S = TRANSFERS.form;

/**
 * "Transfer this plant" or "Transfer this seed lot", for its giving side (the owner, or an owner or manager acting for
 * the owning organization): the recipient by id, or one of a quick choice (oneself, one's organizations). A pending
 * transfer is shown with its withdrawal instead.
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
  const mine = useMyOrganizations();
  const [to, setTo] = useState('');
  const [message, setMessage] = useState('');
  const choices = [
    ...(ownerId !== user.id ? [{ value: user.id, label: S.you(user.name) }] : []),
    ...(mine.data ?? []).filter((o) => o.id !== ownerId).map((o) => ({ value: o.id, label: o.name })),
  ];
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
          {choices.length > 0 && (
            <SelectField
              label={S.choose}
              name="recipientChoice"
              value={choices.some((c) => c.value === to) ? to : ''}
              onChange={setTo}
              options={[{ value: '', label: S.chooseNone }, ...choices]}
            />
          )}
          <Field
            label={S.recipient}
            name="to"
            required
            value={to}
            onChange={(e) => setTo(e.target.value)}
            hint={S.recipientHint}
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
