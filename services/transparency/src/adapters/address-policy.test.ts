import { describe, expect, it } from 'vitest';
import { isAllowedAddress } from './address-policy.js';

describe('webhook address policy', () => {
  it('refuses loopback, private, link-local and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isAllowedAddress(a), a).toBe(false);
    }
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])
      expect(isAllowedAddress(a), a).toBe(true);
  });
});
