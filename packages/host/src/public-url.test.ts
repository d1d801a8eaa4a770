import { contextToHeaders, headersToContext } from '@rootline/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUBLIC_URL, publicUrlOf } from './public-url.js';

describe('publicUrlOf', () => {
  it("prefers the service's PUBLIC_URL, then the call's address, then the default", () => {
    const call = { publicUrl: 'http://127.0.0.1:4321' };
    expect(publicUrlOf(call, 'https://rootline.example/')).toBe('https://rootline.example');
    expect(publicUrlOf(call, undefined)).toBe('http://127.0.0.1:4321');
    expect(publicUrlOf({}, undefined)).toBe(DEFAULT_PUBLIC_URL);
    expect(publicUrlOf(undefined)).toBe(DEFAULT_PUBLIC_URL);
  });
});

describe('the public address in the call context', () => {
  const headersOf = (publicUrl: string) => ({ ...contextToHeaders({ requestId: 'r' }), 'x-public-url': publicUrl });

  it('travels in the message headers', () => {
    const ctx = { requestId: 'r', publicUrl: 'https://rootline.example/api-base' };
    expect(headersToContext(contextToHeaders(ctx), () => 'x')).toEqual(ctx);
  });

  it('is dropped when it is not a plain http(s) address', () => {
    for (const bad of ['ftp://x', 'https://a b', 'https://x/?q=1', 'https://u@evil.example', 'https://x/', 'x']) {
      expect(headersToContext(headersOf(bad), () => 'x').publicUrl).toBeUndefined();
    }
    expect(headersToContext(headersOf('http://[::1]:3000'), () => 'x').publicUrl).toBe('http://[::1]:3000');
  });
});
