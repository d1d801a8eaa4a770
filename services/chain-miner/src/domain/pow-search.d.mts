/** True when the hex digest has at least `difficulty` leading zero bits. */
export declare function meetsDifficulty(hex: string, difficulty: number): boolean;

/** Searches nonces in [start, end) for SHA-256(prefix + decimal nonce) meeting the difficulty. */
export declare function searchRange(
  prefix: string,
  difficulty: number,
  start: number,
  end: number,
): { nonce: number; hash: string } | undefined;
