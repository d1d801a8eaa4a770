import { RootlineError } from '@rootline/sdk';
import { QueryClient } from '@tanstack/react-query';

/** Server state lives here. Client errors (4xx) are not retried: asking again gives the same answer. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (count, error) => !(error instanceof RootlineError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
