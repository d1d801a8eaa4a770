import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/identity/db/schema.ts',
  out: './drizzle',
  schemaFilter: ['identity'],
});
