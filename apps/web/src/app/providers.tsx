import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from '../components/toaster';
import { LiveProvider } from '../lib/live';
import { queryClient } from '../lib/query-client';

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <LiveProvider>
        <Toaster>{children}</Toaster>
      </LiveProvider>
    </QueryClientProvider>
  );
}
