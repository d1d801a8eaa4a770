import { useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../components/field';
import { EMPTY_LOCATION, LocationPicker, toApiLocation } from '../../../components/location-picker';
import { type PrivacyLevel, PrivacyLevelField } from '../../../components/privacy-level-field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { useRegisterAnonymous } from '../api/register-anonymous';
import { makeWalletKeys, type WalletKeys } from '../lib/wallet-keys';
import { ANONYMOUS } from '../strings';
import { KeyBackup } from './key-backup';

const S = ANONYMOUS;

/** The form, then the result with the key to save. The key pair is made on submit, in this browser. */
export function AnonymousRegistration() {
  const register = useRegisterAnonymous();
  const [commonName, setCommonName] = useState('');
  const [scientificName, setScientificName] = useState('');
  const [pseudonym, setPseudonym] = useState('');
  const [location, setLocation] = useState(EMPTY_LOCATION);
  const [privacyLevel, setPrivacyLevel] = useState<PrivacyLevel>('fuzzy');
  const [keys, setKeys] = useState<WalletKeys | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (register.data && keys) {
    const r = register.data;
    return (
      <>
        <section className="card" aria-labelledby="result-heading">
          <h2 id="result-heading">{S.result.title}</h2>
          <dl className="facts">
            <dt>{S.result.plant}</dt>
            <dd className="mono">{r.id}</dd>
            <dt>{S.result.anonymousId}</dt>
            <dd className="mono">{r.anonymousId}</dd>
            <dt>{S.result.wallet}</dt>
            <dd className="mono">{r.walletAddress}</dd>
            <dt>{S.result.pseudonym}</dt>
            <dd>{r.pseudonym ?? S.result.noPseudonym}</dd>
            <dt>{S.result.block}</dt>
            <dd className="mono">{r.blockHash}</dd>
            <dt>{S.result.publicKey}</dt>
            <dd className="mono">{r.publicKey}</dd>
          </dl>
          <p>
            <Link to={`/plants/${r.id}`}>{S.result.open}</Link>
          </p>
        </section>
        <KeyBackup
          backup={{
            plantId: r.id,
            anonymousId: r.anonymousId,
            walletAddress: r.walletAddress,
            publicKey: keys.publicKey,
            privateKey: keys.privateKey,
          }}
        />
      </>
    );
  }

  const error = problem ?? register.error;
  return (
    <form
      className="card form"
      onSubmit={async (e) => {
        e.preventDefault();
        setProblem(null);
        const point = toApiLocation(location);
        if (!point) {
          setProblem(S.missingLocation);
          return;
        }
        let made: WalletKeys;
        try {
          made = await makeWalletKeys();
        } catch {
          setProblem(S.unsupported);
          return;
        }
        setKeys(made);
        register.mutate({
          commonName,
          ...(scientificName.trim() ? { scientificName: scientificName.trim() } : {}),
          ...(pseudonym.trim() ? { pseudonym: pseudonym.trim() } : {}),
          location: point,
          privacyLevel,
          // Only the public half: the private key stays in this page.
          publicKey: made.publicKey,
        });
      }}
    >
      <ErrorAlert error={error} />
      <Field
        label={S.commonName}
        name="commonName"
        required
        maxLength={200}
        value={commonName}
        onChange={(e) => setCommonName(e.target.value)}
        error={errorFor(register.error, 'commonName')}
      />
      <Field
        label={S.scientificName}
        name="scientificName"
        maxLength={200}
        value={scientificName}
        onChange={(e) => setScientificName(e.target.value)}
        error={errorFor(register.error, 'scientificName')}
      />
      <LocationPicker
        value={location}
        onChange={setLocation}
        // A search by name would carry any session the browser has, and tie the searched place to it.
        placeSearch={false}
        errors={{
          latitude: errorFor(register.error, 'latitude'),
          longitude: errorFor(register.error, 'longitude'),
          city: errorFor(register.error, 'city'),
          country: errorFor(register.error, 'country'),
        }}
      />
      <PrivacyLevelField
        value={privacyLevel}
        onChange={setPrivacyLevel}
        error={errorFor(register.error, 'privacyLevel')}
      />
      <Field
        label={S.pseudonym}
        name="pseudonym"
        maxLength={60}
        hint={S.pseudonymHint}
        value={pseudonym}
        onChange={(e) => setPseudonym(e.target.value)}
        error={errorFor(register.error, 'pseudonym')}
      />
      <button type="submit" disabled={register.isPending}>
        {register.isPending ? S.busy : S.submit}
      </button>
    </form>
  );
}
