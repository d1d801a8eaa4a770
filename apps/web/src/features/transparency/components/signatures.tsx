import { useEffect, useState } from 'react';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import {
  type SubjectType,
  useRegisterKey,
  useRevokeKey,
  useSign,
  useSignatures,
  useSigningKeys,
  useStatement,
  useVerifySignature,
} from '../api/signatures';
import { supportsEd25519, verifyText } from '../lib/signing-keys';
import { TRANSPARENCY } from '../strings';

const S = TRANSPARENCY.signatures;
const SUBJECT_TYPES = [
  'transport-event',
  'ownership-transfer',
  'certificate',
] as const satisfies readonly SubjectType[];

/** The caller's keys, and a new one made in this browser. */
export function SigningKeys() {
  const keys = useSigningKeys();
  const register = useRegisterKey();
  const revoke = useRevokeKey();
  const [label, setLabel] = useState('');
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => {
    void supportsEd25519().then(setSupported);
  }, []);
  return (
    <section className="card" aria-labelledby="keys-heading">
      <h2 id="keys-heading">{S.keys}</h2>
      {supported === false && <p className="alert alert-error">{S.unsupported}</p>}
      <ErrorAlert error={revoke.error} />
      {keys.isPending ? (
        <Loading />
      ) : keys.error ? (
        <ErrorAlert error={keys.error} />
      ) : keys.data.length === 0 ? (
        <p>{S.noKeys}</p>
      ) : (
        <ul className="results">
          {keys.data.map((k) => (
            <li key={k.id}>
              <strong>{k.label ?? k.id}</strong>{' '}
              <span className={k.revokedAt ? 'badge bad' : 'badge'}>
                {k.revokedAt ? S.revoked : k.inBrowser ? S.inBrowser : S.elsewhere}
              </span>
              <div className="mono hint">{k.fingerprint}</div>
              {!k.revokedAt && (
                <button
                  type="button"
                  className="danger small"
                  aria-label={`${S.revoke} ${k.label ?? k.id}`}
                  onClick={() => revoke.mutate(k.id)}
                >
                  {S.revoke}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          register.mutate(label.trim(), { onSuccess: () => setLabel('') });
        }}
      >
        <ErrorAlert error={register.error} />
        <Field
          label={S.label}
          name="label"
          maxLength={100}
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          error={errorFor(register.error, 'label')}
        />
        <button type="submit" disabled={register.isPending || supported === false}>
          {register.isPending ? S.registering : S.register}
        </button>
      </form>
    </section>
  );
}

/** Loads a subject's statement, signs it here with a key kept in this browser, and lists its signatures. */
export function SignSubject() {
  const keys = useSigningKeys();
  const statement = useStatement();
  const sign = useSign();
  const [subjectType, setSubjectType] = useState<SubjectType>('transport-event');
  const [subjectId, setSubjectId] = useState('');
  const [keyId, setKeyId] = useState('');
  const [subject, setSubject] = useState<{ subjectType: SubjectType; subjectId: string } | null>(null);
  const signatures = useSignatures(subject);
  const usable = (keys.data ?? []).filter((k) => k.inBrowser && !k.revokedAt);
  const chosen = keyId || usable[0]?.id || '';
  return (
    <section className="card" aria-labelledby="sign-heading">
      <h2 id="sign-heading">{S.sign}</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const s = { subjectType, subjectId: subjectId.trim() };
          statement.mutate(s, { onSuccess: () => setSubject(s) });
        }}
      >
        <SelectField
          label={S.subjectType}
          name="subjectType"
          value={subjectType}
          onChange={(v) => setSubjectType(v as SubjectType)}
          options={SUBJECT_TYPES.map((t) => ({ value: t, label: S.subjectTypes[t] }))}
        />
        <Field
          label={S.subjectId}
          name="subjectId"
          required
          value={subjectId}
          onChange={(e) => setSubjectId(e.target.value)}
          error={errorFor(statement.error, 'subjectId')}
        />
        <ErrorAlert error={statement.error} />
        <button type="submit" className="secondary" disabled={statement.isPending}>
          {S.load}
        </button>
      </form>
      {statement.data && subject && (
        <>
          <h3>{S.statement}</h3>
          <pre className="mono statement">{statement.data.canonical}</pre>
          <p className="mono hint">SHA-256 {statement.data.sha256}</p>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              sign.mutate({ ...subject, keyId: chosen, canonical: statement.data.canonical });
            }}
          >
            <SelectField
              label={S.key}
              name="keyId"
              value={chosen}
              onChange={setKeyId}
              options={usable.map((k) => ({ value: k.id, label: k.label ?? k.id }))}
            />
            <ErrorAlert error={sign.error} />
            <button type="submit" disabled={sign.isPending || !chosen}>
              {S.signIt}
            </button>
            {sign.isSuccess && <Notice>{S.signed}</Notice>}
          </form>
          <h3>{S.list}</h3>
          {signatures.isPending ? (
            <Loading />
          ) : signatures.error ? (
            <ErrorAlert error={signatures.error} />
          ) : signatures.data.length === 0 ? (
            <p>{S.none}</p>
          ) : (
            <ul className="results">
              {signatures.data.map((sig) => (
                <li key={sig.id}>
                  <span className={sig.status === 'valid' ? 'badge' : 'badge bad'}>{sig.status}</span>{' '}
                  <span className="mono">{sig.keyId}</span> {formatDateTime(sig.createdAt)}
                  <div className="mono hint">{sig.signature}</div>
                  <LocalCheck
                    publicKey={sig.publicKey}
                    signature={sig.signature}
                    canonical={statement.data.canonical}
                  />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** Checks a listed signature in this browser (WebCrypto Ed25519) over the statement's canonical text. */
function LocalCheck({ publicKey, signature, canonical }: { publicKey: string; signature: string; canonical: string }) {
  const [result, setResult] = useState<boolean | 'error' | null>(null);
  return (
    <div aria-live="polite">
      <button
        type="button"
        className="secondary small"
        onClick={() => verifyText(publicKey, signature, canonical).then(setResult, () => setResult('error'))}
      >
        {S.checkHere}
      </button>{' '}
      {result !== null && (
        <span className={result === true ? 'badge' : 'badge bad'}>
          {result === true ? S.checkedHere : S.failedHere}
        </span>
      )}
    </div>
  );
}

/** Checks any statement, signature and public key with the API. */
export function VerifySignature() {
  const verify = useVerifySignature();
  const [statement, setStatement] = useState('');
  const [signature, setSignature] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="card form"
      aria-labelledby="verify-heading"
      onSubmit={(e) => {
        e.preventDefault();
        let parsed: unknown;
        try {
          parsed = JSON.parse(statement);
        } catch {
          setProblem(S.badJson);
          return;
        }
        setProblem(null);
        verify.mutate({ statement: parsed, signature: signature.trim(), publicKey: publicKey.trim() });
      }}
    >
      <h2 id="verify-heading">{S.verify}</h2>
      <p className="hint">{S.verifyLead}</p>
      <div className="field">
        <label htmlFor="verify-statement">{S.statementJson}</label>
        <textarea
          id="verify-statement"
          name="statement"
          rows={4}
          required
          value={statement}
          onChange={(e) => setStatement(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'verify-statement-error' : undefined}
        />
        {problem && (
          <p className="field-error" id="verify-statement-error">
            {problem}
          </p>
        )}
      </div>
      <Field
        label={S.signature}
        name="signature"
        required
        value={signature}
        onChange={(e) => setSignature(e.target.value)}
        error={errorFor(verify.error, 'signature')}
      />
      <Field
        label={S.publicKey}
        name="publicKey"
        required
        value={publicKey}
        onChange={(e) => setPublicKey(e.target.value)}
        error={errorFor(verify.error, 'publicKey')}
      />
      <ErrorAlert error={verify.error} />
      <button type="submit" disabled={verify.isPending}>
        {S.check}
      </button>
      <div aria-live="polite">
        {verify.data && (
          <p className={verify.data.valid ? 'alert alert-ok' : 'alert alert-error'}>
            {verify.data.valid ? S.valid : S.invalid}
          </p>
        )}
      </div>
    </form>
  );
}
