import postgres from 'postgres';

type TransactionBody = (sql: postgres.TransactionSql) => unknown;

/**
 * Returns `client` with `begin` (what drizzle's `db.transaction` calls) rebuilt on `reserve()`.
 *
 * postgres.js 3.4.9 pins a transaction to its connection only if BEGIN did not fill that connection's
 * pipeline: with `max_pipeline: 0` it never does, so every transaction fails with UNSAFE_TRANSACTION
 * (porsager/postgres#1210); with the default it fails now and then under load, and may run unrelated
 * queries inside the open transaction (#1189). `reserve()` only hands out an idle connection, so the
 * transaction owns it from BEGIN to COMMIT whatever the pipeline setting.
 */
export function withReservedTransactions(client: postgres.Sql): postgres.Sql {
  async function begin(...args: [TransactionBody] | [string, TransactionBody]): Promise<unknown> {
    const [mode, body] = args.length === 2 ? args : ['', args[0]];
    const conn = await client.reserve();
    let ended = false;
    try {
      await conn.unsafe(`begin ${mode.replace(/[^a-z ]/gi, '')}`);
      let result: unknown;
      try {
        result = await body(asTransaction(conn));
      } catch (err) {
        if (!isConnectionError(err)) {
          await conn.unsafe('rollback').catch((rollbackErr: unknown) => {
            if (!isConnectionError(rollbackErr)) throw rollbackErr;
          });
        }
        throw err;
      }
      await conn.unsafe('commit');
      ended = true;
      return result;
    } catch (err) {
      // A server-side error leaves the connection usable (the transaction is over or rolled back); a lost
      // connection has already been taken back by the pool and must not be released into it again.
      ended = !isConnectionError(err);
      throw err;
    } finally {
      if (ended) conn.release();
    }
  }

  return new Proxy(client, {
    get: (target, prop, receiver) => (prop === 'begin' ? begin : Reflect.get(target, prop, receiver)),
  });
}

/** A reserved connection inside BEGIN, with the `savepoint` drizzle uses for nested transactions. */
function asTransaction(conn: postgres.ReservedSql): postgres.TransactionSql {
  let count = 0;
  const savepoint = async (...args: [TransactionBody] | [string, TransactionBody]): Promise<unknown> => {
    const body = args.length === 2 ? args[1] : args[0];
    const name = `s${count++}`;
    await conn.unsafe(`savepoint ${name}`);
    try {
      const result = await body(tx);
      await conn.unsafe(`release savepoint ${name}`);
      return result;
    } catch (err) {
      if (!isConnectionError(err)) await conn.unsafe(`rollback to savepoint ${name}`);
      throw err;
    }
  };
  // Drizzle calls only `unsafe` and `savepoint` on a transaction (never two-phase `prepare`).
  const tx = Object.assign(conn, { savepoint }) as unknown as postgres.TransactionSql;
  return tx;
}

/** True for a lost or refused connection (postgres.js `CONNECTION_*`, Node `E…`), not a SQL error. */
function isConnectionError(err: unknown): boolean {
  if (err instanceof postgres.PostgresError) return false;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('CONNECTION_') || /^E[A-Z]+$/.test(code));
}
