import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SDK is bundled from its TypeScript sources (the "development" export), so the app builds without the
// workspace's compiled output. Pages are split by area through the router's lazy routes.
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['development', 'browser', 'module', 'import', 'default'] },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '/api': process.env.ROOTLINE_API ?? 'http://127.0.0.1:3000' } },
});
