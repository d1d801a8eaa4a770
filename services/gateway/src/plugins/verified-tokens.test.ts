import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from './verified-tokens.js';

describe('VerifiedTokens', () => {
  const verifier = () => {
    const calls: string[] = [];
    const verify = (token: string) => {
      calls.push(token);
      if (token.startsWith('bad')) throw new Error('invalid');
      return { exp: Number(token.split(':')[1]) };
    };
    return { calls, verify };
  };

  it('verifies a token once while it is valid, and again once it has expired', () => {
    let now = 1_000_000;
    const { calls, verify } = verifier();
    const tokens = new VerifiedTokens(verify, 10, () => now);
    expect(tokens.claims('t:1001')).toEqual({ exp: 1001 });
    expect(tokens.claims('t:1001')).toEqual({ exp: 1001 });
    expect(calls).toEqual(['t:1001']);
    now = 1_001_000;
    tokens.claims('t:1001');
    expect(calls).toEqual(['t:1001', 't:1001']);
  });

  it('never remembers a token that failed: it is checked again each time', () => {
    const { calls, verify } = verifier();
    const tokens = new VerifiedTokens(verify, 10, () => 0);
    expect(() => tokens.claims('bad:9')).toThrow('invalid');
    expect(() => tokens.claims('bad:9')).toThrow('invalid');
    expect(calls).toHaveLength(2);
    expect(tokens.size).toBe(0);
  });

  it('takes only the exact token from the cache: one character more or less is verified on its own', () => {
    const { calls, verify } = verifier();
    const tokens = new VerifiedTokens(verify, 10, () => 0);
    tokens.claims('t:5');
    tokens.claims('t:50');
    tokens.claims('t:5 ');
    expect(calls).toEqual(['t:5', 't:50', 't:5 ']);
  });

  it('holds at most `max` tokens, letting the oldest go first', () => {
    const { calls, verify } = verifier();
    const tokens = new VerifiedTokens(verify, 2, () => 0);
    tokens.claims('t:1');
    tokens.claims('t:2');
    tokens.claims('t:3');
    expect(tokens.size).toBe(2);
    tokens.claims('t:3');
    tokens.claims('t:1');
    expect(calls).toEqual(['t:1', 't:2', 't:3', 't:1']);
  });
});
