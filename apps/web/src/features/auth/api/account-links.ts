import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export function useVerifyEmail() {
  return useMutation({
    mutationFn: (token: string) => unwrap(api.POST('/api/auth/verify-email', { body: { token } })),
  });
}

export function useResendVerification() {
  return useMutation({ mutationFn: () => unwrap(api.POST('/api/auth/verify-email/resend')) });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) => unwrap(api.POST('/api/auth/forgot-password', { body: { email } })),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => unwrap(api.POST('/api/auth/reset-password', { body })),
  });
}
