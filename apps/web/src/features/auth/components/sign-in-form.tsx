import { useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../components/field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { useProviders, useSignIn } from '../api/session';
import { AUTH } from '../strings';

const S = AUTH.signIn;

/** Email and password, then the third-party providers the deployment enables. */
export function SignInForm({ onSignedIn, returnTo }: { onSignedIn: () => void; returnTo: string }) {
  const signIn = useSignIn();
  const providers = useProviders();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const others = Object.values(providers.data ?? {}).filter((p) => p.type !== 'credentials');
  return (
    <>
      <form
        className="card form"
        onSubmit={(e) => {
          e.preventDefault();
          signIn.mutate({ email, password }, { onSuccess: onSignedIn });
        }}
      >
        <ErrorAlert error={signIn.error} />
        <Field
          label={S.email}
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errorFor(signIn.error, 'email')}
        />
        <Field
          label={S.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errorFor(signIn.error, 'password')}
        />
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? S.busy : S.submit}
        </button>
        <p>
          <Link to="/forgot-password">{S.forgot}</Link>
        </p>
        <p>
          {S.noAccount} <Link to="/signup">{S.signUp}</Link>
        </p>
      </form>
      {others.length > 0 && (
        <section className="card" aria-labelledby="providers-heading">
          <h2 id="providers-heading">{S.providers}</h2>
          <ul className="button-list">
            {others.map((p) => (
              <li key={p.id}>
                {/* A full-page navigation: the provider's redirect sets the session cookie on return. */}
                <a className="button secondary" href={`${p.signinUrl}?callbackUrl=${encodeURIComponent(returnTo)}`}>
                  {S.providerButton(p.name)}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
