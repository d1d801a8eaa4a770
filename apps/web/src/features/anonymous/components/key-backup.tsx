import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { ANONYMOUS } from '../strings';

const S = ANONYMOUS.key;

interface Backup {
  plantId: string;
  anonymousId: string;
  walletAddress: string;
  publicKey: string;
  privateKey: string;
}

/** The private key offered as a file and as a QR code, both made here; nothing is sent. */
export function KeyBackup({ backup }: { backup: Backup }) {
  const [qr, setQr] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [href, setHref] = useState<string | null>(null);

  useEffect(() => {
    QRCode.toDataURL(backup.privateKey, { errorCorrectionLevel: 'M', margin: 2, width: 240 }).then(setQr);
    const file = new Blob(
      [`${JSON.stringify({ ...backup, algorithm: 'Ed25519', encoding: 'base64url' }, null, 2)}\n`],
      {
        type: 'application/json',
      },
    );
    const url = URL.createObjectURL(file);
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [backup]);

  return (
    <section className="card" aria-labelledby="key-heading">
      <h2 id="key-heading">{S.title}</h2>
      <p className="alert alert-error">{S.warning}</p>
      <p className="actions">
        {href && (
          <a className="button" href={href} download={`rootline-key-${backup.plantId}.json`}>
            {S.download}
          </a>
        )}
        <button type="button" className="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? S.hide : S.show}
        </button>
      </p>
      {shown && (
        <p>
          <label>
            {S.label}
            <input className="secret" readOnly value={backup.privateKey} />
          </label>
        </p>
      )}
      {qr && (
        <figure className="qr">
          <img src={qr} alt={S.qr} width={240} height={240} />
          <figcaption className="hint">{S.qr}</figcaption>
        </figure>
      )}
    </section>
  );
}
