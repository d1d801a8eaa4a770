import { QueryClientProvider } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster } from '../components/toaster';
import { LiveProvider } from '../lib/live';
import { queryClient } from '../lib/query-client';

/** Shows the pages again, in the new language, when the language changes (texts are read as pages render). */
function LanguageBoundary({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <Fragment key={i18n.language}>{children}</Fragment>;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <LiveProvider>
        <LanguageBoundary>
          <Toaster>{children}</Toaster>
        </LanguageBoundary>
      </LiveProvider>
    </QueryClientProvider>
  );
}
