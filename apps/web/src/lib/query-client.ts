import { RootlineError } from '@rootline/sdk';
import { QueryClient } from '@tanstack/react-query';
import { isRateLimited } from './errors';

/**
 * Server state lives here. Client errors (4xx) are not retried: asking again gives the same answer. A read refused
 * with a 429 is not asked again when another part of the page starts showing it: the API said when to come back, and
 * the calm pause (RateLimitNotice) asks again after `Retry-After`, or at once with its button.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (count, error) => !(error instanceof RootlineError && error.status < 500) && count < 2,
      retryOnMount: (query) => !isRateLimited(query.state.error),
      refetchOnWindowFocus: false,
    },
  },
});
