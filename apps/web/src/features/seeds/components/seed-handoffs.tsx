import { useState } from 'react';
import { Link } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useHandOn, useHandoffs, usePeerNames, useReceive } from '../api/handoffs';
import type { SeedLot } from '../api/seed-lots';
import { SEEDS } from '../strings';
import { quantityText } from './seed-lot-list';

const H = SEEDS.handoff;
const R = SEEDS.receive;

/**
 * "Hand to a grower on another node": the lot's holder hands part of it to a grower on a peer node; the answer shows
 * the handoff id to pass on, with which the grower receives it on their node.
 */
export function HandSeedForm({ lot }: { lot: SeedLot }) {
  const peers = usePeerNames();
  const hand = useHandOn(lot.id);
  const names = peers.data ?? [];
  const empty = { peer: '', amount: '', recipient: '' };
  const [form, setForm] = useState(empty);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const err = (name: string) => errorFor(hand.error, name);
  const unit = lot.quantity ? SEEDS.units[lot.quantity.unit] : '';
  const peer = form.peer || names[0] || '';
  return (
    <form
      className="card stack"
      aria-labelledby="hand-seed-form"
      onSubmit={(e) => {
        e.preventDefault();
        hand.mutate(
          { peer, quantity: { amount: Number(form.amount) }, recipient: form.recipient.trim() },
          { onSuccess: () => setForm(empty) },
        );
      }}
    >
      <h2 id="hand-seed-form">{H.title}</h2>
      <p>{H.lead}</p>
      {hand.data && (
        <Notice>
          {H.done(quantityText(hand.data.quantity), hand.data.recipient, hand.data.peer)}
          <br />
          <label htmlFor="handoff-id">{H.idLabel}</label>{' '}
          <input id="handoff-id" readOnly value={hand.data.id} size={48} onFocus={(e) => e.target.select()} />
        </Notice>
      )}
      {peers.isSuccess && names.length === 0 ? (
        <p>{H.noPeers}</p>
      ) : (
        <>
          <div className="seed-form-grid">
            <SelectField
              label={H.peer}
              name="peer"
              value={peer}
              onChange={(value) => setForm({ ...form, peer: value })}
              options={names.map((n) => ({ value: n, label: n }))}
              error={err('peer')}
            />
            <Field
              label={H.amount(unit)}
              name="amount"
              required
              inputMode="decimal"
              value={form.amount}
              onChange={set('amount')}
              error={err('quantity.amount')}
            />
            <Field
              label={H.recipient}
              name="recipient"
              required
              maxLength={200}
              value={form.recipient}
              onChange={set('recipient')}
              hint={H.recipientHint}
              error={err('recipient')}
            />
          </div>
          <ErrorAlert error={hand.error} />
          <div className="actions">
            <button type="submit" disabled={hand.isPending || !peer}>
              {hand.isPending ? H.busy : H.submit}
            </button>
          </div>
        </>
      )}
    </form>
  );
}

/** The lot's handoffs across nodes, to its holder: what went out, and what it came in by. */
export function SeedHandoffs({ seedLotId }: { seedLotId: string }) {
  const handoffs = useHandoffs(seedLotId);
  const items = handoffs.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="card" aria-labelledby="seed-handoffs">
      <h2 id="seed-handoffs">{H.history}</h2>
      <ul className="plain-list">
        {items.map((h) => (
          <li key={`${h.direction}-${h.peer}-${h.id}`}>
            {h.direction === 'outgoing'
              ? H.outgoing(quantityText(h.quantity), h.recipient, h.peer, formatDateTime(h.createdAt))
              : H.incoming(quantityText(h.quantity), h.peer, formatDateTime(h.createdAt))}{' '}
            <code>{h.id}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Receive seed from another node": a grower claims seed handed on from a peer node by its handoff id. */
export function ReceiveSeedForm() {
  const peers = usePeerNames();
  const receive = useReceive();
  const names = peers.data ?? [];
  const [form, setForm] = useState({ peer: '', handoffId: '' });
  const err = (name: string) => errorFor(receive.error, name);
  const peer = form.peer || names[0] || '';
  if (peers.isSuccess && names.length === 0) return null;
  return (
    <form
      className="card stack"
      aria-labelledby="receive-seed-form"
      onSubmit={(e) => {
        e.preventDefault();
        receive.mutate(
          { peer, handoffId: form.handoffId.trim().toLowerCase() },
          { onSuccess: () => setForm({ peer: form.peer, handoffId: '' }) },
        );
      }}
    >
      <h2 id="receive-seed-form">{R.title}</h2>
      <p>{R.lead}</p>
      {receive.data && (
        <Notice>
          {R.done(quantityText(receive.data.quantity))}{' '}
          <Link to={`/seed-lots/${receive.data.seedLotId}`}>{R.open}</Link>
        </Notice>
      )}
      <div className="seed-form-grid">
        <SelectField
          label={R.peer}
          name="peer"
          value={peer}
          onChange={(value) => setForm({ ...form, peer: value })}
          options={names.map((n) => ({ value: n, label: n }))}
          error={err('peer')}
        />
        <Field
          label={R.handoffId}
          name="handoffId"
          required
          value={form.handoffId}
          onChange={(e) => setForm({ ...form, handoffId: e.target.value })}
          hint={R.handoffIdHint}
          error={err('handoffId')}
        />
      </div>
      <ErrorAlert error={receive.error} />
      <div className="actions">
        <button type="submit" disabled={receive.isPending || !peer}>
          {receive.isPending ? R.busy : R.submit}
        </button>
      </div>
    </form>
  );
}
