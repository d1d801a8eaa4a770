import { ErrorAlert, Loading } from '../../../components/status';
import { useQrCode } from '../api/certificate';
import { QR } from '../strings';

const S = QR;

export function QrPanel({ plantId }: { plantId: string }) {
  const qr = useQrCode(plantId);
  return (
    <section className="card" aria-labelledby="qr-heading">
      <h2 id="qr-heading">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      {qr.isPending ? (
        <Loading />
      ) : qr.error ? (
        <ErrorAlert error={qr.error} />
      ) : (
        <div className="qr">
          {qr.data.image && <img src={qr.data.image} alt={S.image} width={200} height={200} />}
          <p className="mono">
            <a href={qr.data.url}>{qr.data.url}</a>
          </p>
        </div>
      )}
    </section>
  );
}
