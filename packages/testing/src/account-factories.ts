import postgres from 'postgres';

/**
 * Gives an account another display name, as a rename would: records written under the old one keep it, and reads
 * show the new one beside it (docs/privacy.md, "Names on records").
 */
export async function renameAccount(databaseUrl: string, userId: string, name: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`update identity.users set name = ${name}, updated_at = now() where id = ${userId}`;
  } finally {
    await sql.end();
  }
}
