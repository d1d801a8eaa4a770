import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The design tokens --green and --bg (src/styles.css): the installed app's title bar and splash screen. */
const THEME = '#2f6b3a';
const BACKGROUND = '#f7f8f5';

// The SDK is bundled from its TypeScript sources (the "development" export), so the app builds without the
// workspace's compiled output. Pages are split by area through the router's lazy routes.
// The service worker (src/sw/sw.ts) is built to /sw.js with the list of the build's files to keep
// offline (ADR 225); the app registers it itself (src/lib/service-worker.ts).

/**
 * In the dev server the worker is compiled on the fly by vite-plugin-pwa (devOptions) at `/dev-sw.js?dev-sw`, as an
 * ES module; this serves it at `/sw.js` too, so the app registers the same address in dev and in a build.
 */
function devServiceWorkerAtSwJs(): Plugin {
  return {
    name: 'rootline:dev-service-worker',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url === '/sw.js') req.url = '/dev-sw.js?dev-sw';
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    devServiceWorkerAtSwJs(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      // The worker runs in the dev server too (Chromium: a module worker), its precache only index.html: the dev
      // server's files are many small modules that change at every edit, so only the shell is kept offline there.
      devOptions: { enabled: true, type: 'module', navigateFallback: 'index.html' },
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        globIgnores: ['apple-touch-icon.png', 'icon-*.png'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      manifest: {
        id: '/',
        name: 'Rootline',
        short_name: 'Rootline',
        description: 'Trace plants, their offspring and their journeys.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME,
        background_color: BACKGROUND,
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  resolve: { conditions: ['development', 'browser', 'module', 'import', 'default'] },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Fewer files before a page shows (ADR 239): everything the first chunk imports is one file, and a shared chunk
    // under 8 KB is copied into the pages that use it (rolldown keeps one module state for the copies), so a phone on
    // a slow network waits for one round trip per step, not one per small file.
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          groups: [{ name: 'app', tags: ['$initial'] }],
          experimentalInlineCommonChunks: { maxSize: 8 * 1024 },
        },
      },
    },
  },
  server: { proxy: { '/api': process.env.ROOTLINE_API ?? 'http://127.0.0.1:3000' } },
});
