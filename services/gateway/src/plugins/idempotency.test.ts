import { describe, expect, it } from 'vitest';
import { withoutOnceFields } from './idempotency.js';

describe('withoutOnceFields', () => {
  const answer = JSON.stringify({
    success: true,
    data: { id: 'plt_1', publicKey: 'PUB', privateKey: 'SECRET' },
    error: null,
  });

  it('stores the answer with the fields shown once set to null', () => {
    const stored = withoutOnceFields(answer, ['privateKey']);
    expect(stored).not.toContain('SECRET');
    expect(JSON.parse(stored)).toEqual({
      success: true,
      data: { id: 'plt_1', publicKey: 'PUB', privateKey: null },
      error: null,
    });
  });

  it('leaves other answers as they are', () => {
    expect(withoutOnceFields(answer, undefined)).toBe(answer);
    expect(withoutOnceFields(answer, [])).toBe(answer);
    expect(withoutOnceFields('not json', ['privateKey'])).toBe('not json');
    const error = JSON.stringify({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect(withoutOnceFields(error, ['privateKey'])).toBe(error);
  });
});
