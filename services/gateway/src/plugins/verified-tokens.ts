/**
 * Session tokens already verified, keyed by the token's text. A client sends the same token on every request;
 * checking its HMAC again each time, or hashing it to look it up (what fast-jwt's own cache does: SHA-256 per
 * request), costs more than the rest of authentication. The token's text is its own key: only a token whose every
 * byte matches one verified before is taken from here. An entry is kept until its `exp` and the oldest entry goes
 * when the cache is full. Whether the session is still live is not cached here: the caller checks it per request.
 */
export class VerifiedTokens<C extends { exp: number }> {
  readonly #entries = new Map<string, C>();

  constructor(
    private readonly verify: (token: string) => C,
    private readonly max = 10_000,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The token's claims; throws what `verify` throws for a bad or expired token. */
  claims(token: string): C {
    const hit = this.#entries.get(token);
    if (hit !== undefined) {
      if (hit.exp * 1000 > this.nowMs()) return hit;
      this.#entries.delete(token);
    }
    const claims = this.verify(token);
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(token, claims);
    return claims;
  }

  get size(): number {
    return this.#entries.size;
  }
}
