import { useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../components/field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { useSignIn, useSignUp } from '../api/session';
import { AUTH } from '../strings';

const S = AUTH.signUp;

/** Creates the account, then signs in with it. */
export function SignUpForm({ onSignedUp }: { onSignedUp: () => void }) {
  const signUp = useSignUp();
  const signIn = useSignIn();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const error = signUp.error ?? signIn.error;
  return (
    <form
      className="card form"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await signUp.mutateAsync({ name, email, password });
          await signIn.mutateAsync({ email, password });
          onSignedUp();
        } catch {
          // Shown by the alert and next to the field it names.
        }
      }}
    >
      <ErrorAlert error={error} />
      <Field
        label={S.name}
        name="name"
        autoComplete="name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        hint={S.nameHint}
        error={errorFor(error, 'name')}
      />
      <Field
        label={S.email}
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errorFor(error, 'email')}
      />
      <Field
        label={S.password}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        hint={S.passwordHint}
        error={errorFor(error, 'password')}
      />
      <button type="submit" disabled={signUp.isPending || signIn.isPending}>
        {signUp.isPending || signIn.isPending ? S.busy : S.submit}
      </button>
      <p>
        <Link to="/plants/register-anonymous">{S.anonymous}</Link>
      </p>
    </form>
  );
}
