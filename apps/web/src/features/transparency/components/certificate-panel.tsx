import type { SignedCertificate } from '@rootline/sdk';
import { useState } from 'react';
import { ErrorAlert, Loading } from '../../../components/status';
import { formatDateTime } from '../../../lib/format';
import { certificatePdf, useCertificate, useVerifyCertificate } from '../api/certificate';
import { CERTIFICATE } from '../strings';

const S = CERTIFICATE;

/** The steps of `verifyCertificate`, each with the words its problems start with. */
const CHECKS: { step: Parameters<typeof CERTIFICATE.step>[0]; problems: RegExp }[] = [
  { step: 'signature', problems: /signature does not verify over|names another key|unknown signature/ },
  { step: 'leaf', problems: /payload|leaf names|another plant/ },
  { step: 'merkle', problems: /^ledger proof/ },
  { step: 'work', problems: /block header|difficulty/ },
  { step: 'audit', problems: /audit|tree head/ },
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
                    <li key={c.step}>
                      <span className={failed.length ? 'badge bad' : 'badge'}>{failed.length ? S.fail : S.pass}</span>{' '}
                      {S.step(c.step)}
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
