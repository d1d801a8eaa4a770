import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { UpdatePrompt } from './features/app/components/update-prompt';
import { startLanguage } from './i18n';
import { registerServiceWorker } from './lib/service-worker';
import './styles.css';

// English is in the bundle; another language's catalogs are fetched before the first paint.
await startLanguage();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <AppRouter />
      <UpdatePrompt />
    </AppProviders>
  </StrictMode>,
);

// The offline shell and the new-version prompt (ADR 225–227); the worker registers once the page has loaded.
registerServiceWorker();
