import { describe, expect, it } from 'vitest';
import { isKeepablePublicAnswer } from './public-answers';

describe('isKeepablePublicAnswer', () => {
  it('keeps a successful answer marked public', () => {
    expect(isKeepablePublicAnswer(200, 'public, no-cache')).toBe(true);
    expect(isKeepablePublicAnswer(200, 'Public, Max-Age=60')).toBe(true);
  });

  it('never keeps an answer that is private, not to be stored or says nothing', () => {
    expect(isKeepablePublicAnswer(200, 'private, no-cache')).toBe(false);
    expect(isKeepablePublicAnswer(200, 'public, no-store')).toBe(false);
    expect(isKeepablePublicAnswer(200, 'no-store')).toBe(false);
    expect(isKeepablePublicAnswer(200, 'max-age=60')).toBe(false);
    expect(isKeepablePublicAnswer(200, null)).toBe(false);
    expect(isKeepablePublicAnswer(200, '')).toBe(false);
  });

  it('never keeps a refusal or any other status', () => {
    expect(isKeepablePublicAnswer(404, 'public, no-cache')).toBe(false);
    expect(isKeepablePublicAnswer(304, 'public, no-cache')).toBe(false);
    expect(isKeepablePublicAnswer(0, 'public')).toBe(false);
  });
});
