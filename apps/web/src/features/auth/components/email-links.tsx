import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../components/field';
import { ErrorAlert, Loading, Notice } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { useForgotPassword, useResendVerification, useResetPassword, useVerifyEmail } from '../api/account-links';
import { AUTH } from '../strings';

/** The landing of the verification email's link: confirms the address once, on arrival. */
export function VerifyEmail({ token }: { token: string | null }) {
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  const sent = useRef(false);
  useEffect(() => {
    if (token && !sent.current) {
      sent.current = true;
      verify.mutate(token);
    }
  }, [token, verify]);
  if (!token) return <ErrorAlert error={AUTH.verify.missing} />;
  if (verify.isPending || verify.isIdle) return <Loading label={AUTH.verify.busy} />;
  if (verify.isSuccess) {
    return (
      <Notice>
        {AUTH.verify.done} <Link to="/plants/mine">{AUTH.verify.mine}</Link>
      </Notice>
    );
  }
  return (
    <div>
      <ErrorAlert error={verify.error} />
      {resend.isSuccess ? (
        <Notice>{AUTH.verify.resent}</Notice>
      ) : (
        <button type="button" className="secondary" onClick={() => resend.mutate()}>
          {AUTH.verify.resend}
        </button>
      )}
      <ErrorAlert error={resend.error} />
    </div>
  );
}

export function ForgotPasswordForm() {
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  if (forgot.isSuccess) return <Notice>{AUTH.forgot.done}</Notice>;
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        forgot.mutate(email);
      }}
    >
      <ErrorAlert error={forgot.error} />
      <Field
        label={AUTH.forgot.email}
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errorFor(forgot.error, 'email')}
      />
      <button type="submit" disabled={forgot.isPending}>
        {AUTH.forgot.submit}
      </button>
    </form>
  );
}

/** The landing of the reset email's link: a new password for the token it carries. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  if (!token) return <ErrorAlert error={AUTH.reset.missing} />;
  if (reset.isSuccess) {
    return (
      <Notice>
        {AUTH.reset.done} <Link to="/signin">{AUTH.reset.signIn}</Link>
      </Notice>
    );
  }
  return (
    <form
      className="card form"
      onSubmit={(e) => {
        e.preventDefault();
        reset.mutate({ token, password });
      }}
    >
      <ErrorAlert error={reset.error} />
      <Field
        label={AUTH.reset.password}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errorFor(reset.error, 'password')}
      />
      <button type="submit" disabled={reset.isPending}>
        {AUTH.reset.submit}
      </button>
    </form>
  );
}
