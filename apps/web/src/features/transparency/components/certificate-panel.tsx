import type { SignedCertificate } from '@rootline/sdk';
import { useState } from 'react';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { certificatePdf, useCertificate, useVerifyCertificate } from '../api/certificate';

const S = {
  title: 'Certificate of authenticity',
  lead: 'Signed by Rootline. Verify it here: your browser checks every proof itself, with no trust in this server.',
  verify: 'Verify in this browser',
  verifying: 'Checking…',
  download: 'Download the PDF',
  downloading: 'Preparing the PDF…',
  valid: 'Verified: every check passed.',
  invalid: 'Not verified: a check failed.',
  keyId: 'Published key',
  issued: 'Issued',
  block: 'Block',
  checks: 'What was checked',
  pass: 'passed',
  fail: 'failed',
} as const;

/** The steps of `verifyCertificate`, each with the words its problems start with. */
const CHECKS: { label: string; problems: RegExp }[] = [
  {
    label: 'Rootline’s Ed25519 signature over the certificate, by the published key',
    problems: /signature does not verify over|names another key|unknown signature/,
  },
  {
    label: 'The registration hashes to the ledger leaf, which names this plant',
    problems: /payload|leaf names|another plant/,
  },
  { label: 'Merkle proof: the transaction is in the block', problems: /^ledger proof/ },
  {
    label: 'Proof of work: the block header hashes to the block hash, with its difficulty',
    problems: /block header|difficulty/,
  },
  { label: 'Audit log: inclusion proof under a tree head Rootline signed', problems: /audit|tree head/ },
];

export function CertificatePanel({ plantId }: { plantId: string }) {
  const certificate = useCertificate(plantId);
  const verify = useVerifyCertificate();
  const [pdf, setPdf] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const cert = certificate.data as SignedCertificate | undefined;
  return (
    <section className="card" aria-labelledby="certificate-heading">
      <h2 id="certificate-heading">{S.title}</h2>
      <p className="hint">{S.lead}</p>
      {certificate.isPending ? (
        <Loading />
      ) : certificate.error ? (
        <ErrorAlert error={certificate.error} />
      ) : (
        <>
          <dl className="facts">
            <dt>{S.issued}</dt>
            <dd>{formatDateTime(cert!.certificate.issuedAt)}</dd>
            <dt>{S.block}</dt>
            <dd className="mono">
              #{cert!.certificate.block.index} {cert!.certificate.block.hash}
            </dd>
            <dt>{S.keyId}</dt>
            <dd className="mono">{cert!.certificate.keyId}</dd>
          </dl>
          <p className="actions">
            <button type="button" disabled={verify.isPending} onClick={() => verify.mutate(cert!)}>
              {verify.isPending ? S.verifying : S.verify}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={pdf.busy}
              onClick={async () => {
                setPdf({ busy: true, error: null });
                try {
                  const url = URL.createObjectURL(await certificatePdf(plantId));
                  const a = document.createElement('a');
                  a.href = url;
                  a.download = `rootline-certificate-${plantId}.pdf`;
                  a.click();
                  setTimeout(() => URL.revokeObjectURL(url), 10_000);
                  setPdf({ busy: false, error: null });
                } catch (error) {
                  setPdf({ busy: false, error });
                }
              }}
            >
              {pdf.busy ? S.downloading : S.download}
            </button>
          </p>
          <ErrorAlert error={pdf.error ?? verify.error} />
          {verify.data && (
            <div aria-live="polite">
              <p
                className={verify.data.verdict.valid ? 'alert alert-ok' : 'alert alert-error'}
                data-verdict={verify.data.verdict.valid ? 'valid' : 'invalid'}
              >
                {verify.data.verdict.valid ? S.valid : S.invalid}
              </p>
              <h3>{S.checks}</h3>
              <ul className="checks">
                {CHECKS.map((c) => {
                  const failed = verify.data.verdict.problems.filter((p) => c.problems.test(p));
                  return (
                    <li key={c.label}>
                      <span className={failed.length ? 'badge bad' : 'badge'}>{failed.length ? S.fail : S.pass}</span>{' '}
                      {c.label}
                      {failed.map((p) => (
                        <div key={p} className="field-error">
                          {p}
                        </div>
                      ))}
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}
