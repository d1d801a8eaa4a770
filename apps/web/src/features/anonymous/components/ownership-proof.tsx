import { useId, useState } from 'react';
import { type OwnershipProof as Proof, parseSavedKey, proveOwnership } from '../lib/ownership';

const S = {
  title: 'Prove you own this plant',
  lead: 'Registered anonymously? Open the key file you saved: this page signs a fresh challenge with it and checks the signature against the plant’s wallet. The key never leaves this browser.',
  file: 'Saved key file',
  prove: 'Prove ownership',
  noKey: 'Choose the key file saved at registration (it holds privateKey and publicKey).',
  proven: 'Proven: this key holds the plant’s wallet.',
  challenge: 'Challenge',
  signature: 'Signature',
  wallet: 'Wallet address',
} as const;

/** An anonymous owner's proof of ownership, made and checked in the browser with the saved key (docs/plants.md). */
export function OwnershipProof({ plantId, walletAddress }: { plantId: string; walletAddress: string }) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [proof, setProof] = useState<Proof | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const prove = async () => {
    setProof(null);
    setError(null);
    const key = file ? parseSavedKey(await file.text()) : null;
    if (!key) {
      setError(S.noKey);
      return;
    }
    setBusy(true);
    try {
      setProof(await proveOwnership(plantId, walletAddress, key));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{S.title}</h2>
      <p className="hint">{S.lead}</p>
      <div className="field">
        <label htmlFor={`${id}-file`}>{S.file}</label>
        <input
          id={`${id}-file`}
          type="file"
          accept="application/json,.json"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <button type="button" onClick={() => void prove()} disabled={busy}>
        {S.prove}
      </button>
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
      {proof && (
        <div className="alert alert-ok" role="status">
          <strong>{S.proven}</strong>
          <dl>
            <dt>{S.wallet}</dt>
            <dd className="mono">{proof.walletAddress}</dd>
            <dt>{S.challenge}</dt>
            <dd className="mono">{proof.challenge}</dd>
            <dt>{S.signature}</dt>
            <dd className="mono break">{proof.signature}</dd>
          </dl>
        </div>
      )}
    </section>
  );
}
