/**
 * SQLSTATEs that say the database cannot serve right now, not that the statement is wrong: class 08 (connection
 * exception), class 53 (insufficient resources, e.g. 53300 too many connections), and 57P01–57P03 (the server is
 * shutting down, crashed, or not accepting connections yet).
 */
function unavailableState(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || code === '57P01' || code === '57P02' || code === '57P03';
}

/** Errors of the connection itself: postgres.js (`CONNECTION_CLOSED`, `CONNECT_TIMEOUT`, …) and Node's sockets. */
const CONNECTION_CODES =
  /^(CONNECTION_[A-Z_]+|CONNECT_TIMEOUT|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/;

/**
 * True when an error (or the error it wraps, as drizzle's `DrizzleQueryError` does in `cause`) means the database
 * is out of reach or refusing work for now: an outage worth a retry, not a bug. Callers answer it UNAVAILABLE.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e !== null && typeof e === 'object'; depth += 1) {
    const { code, severity } = e as { code?: unknown; severity?: unknown };
    if (typeof code === 'string') {
      // A PostgreSQL error carries a severity beside its five-character SQLSTATE.
      if (typeof severity === 'string' && code.length === 5) {
        if (unavailableState(code)) return true;
      } else if (CONNECTION_CODES.test(code)) {
        return true;
      }
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
