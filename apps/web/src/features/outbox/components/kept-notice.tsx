import { Link } from 'react-router';
import { Notice } from '../../../components/status';
import type { Sent } from '../api/outbox';
import { OUTBOX } from '../strings';

/** What a form says when its write was kept on this device: it is sent when the network is back. */
export function KeptNotice({ result }: { result: Sent<unknown> | undefined }) {
  if (result?.status !== 'kept') return null;
  return (
    <Notice>
      {OUTBOX.kept} <Link to="/outbox">{OUTBOX.keptLink}</Link>
    </Notice>
  );
}
