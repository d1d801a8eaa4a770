import { ConfigError, loadConfig } from '@rootline/host';
import { TEST_JWT_SECRET } from '@rootline/testing';
import { describe, expect, it } from 'vitest';
import { GatewayConfig, trustProxyOf } from '../src/config.js';

describe('gateway settings', () => {
  it('applies the defaults', () => {
    const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET });
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      BODY_LIMIT_BYTES: 1_048_576,
      RATE_LIMIT_PER_MINUTE: 100,
      REQUEST_TIMEOUT_MS: 5000,
    });
    expect(config.PUBLIC_URL).toBeUndefined();
  });

  it('converts numbers from the environment', () => {
    const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, PORT: '8080', RATE_LIMIT_PER_MINUTE: '7' });
    expect(config.PORT).toBe(8080);
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(7);
  });

  it('applies the identity and rate-limit defaults of the spec', () => {
    const config = loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET });
    expect(config).toMatchObject({
      RATE_LIMIT_PER_HOUR_PER_USER: 1000,
      AUTH_RATE_LIMIT_PER_MINUTE: 10,
      PASSWORD_HASH: 'bcrypt',
      BCRYPT_COST: 12,
      TRUST_PROXY: false,
      REDIS_KEY_PREFIX: 'rootline:',
    });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.ADMIN_EMAIL).toBeUndefined();
    expect(config.GITHUB_CLIENT_ID).toBeUndefined();
  });

  it('refuses bad identity settings, naming them', () => {
    const bad = (env: Record<string, string>) => () =>
      loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, ...env });
    expect(bad({ PASSWORD_HASH: 'md5' })).toThrow(/PASSWORD_HASH/);
    expect(bad({ BCRYPT_COST: '3' })).toThrow(/BCRYPT_COST/);
    expect(bad({ REDIS_URL: 'http://redis' })).toThrow(/REDIS_URL/);
    expect(bad({ ADMIN_EMAIL: 'not an address' })).toThrow(/ADMIN_EMAIL/);
    expect(loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
  });

  it('trusts the proxies TRUSTED_PROXIES lists, or every peer with TRUST_PROXY, but not both', () => {
    const load = (env: Record<string, string>) => loadConfig(GatewayConfig, { JWT_SECRET: TEST_JWT_SECRET, ...env });
    expect(trustProxyOf(load({}))).toBe(false);
    expect(trustProxyOf(load({ TRUST_PROXY: 'true' }))).toBe(true);
    expect(trustProxyOf(load({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1,loopback' }))).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => load({ TRUSTED_PROXIES: '10.0.0.1; rm -rf' })).toThrow(/TRUSTED_PROXIES/);
    expect(() => trustProxyOf(load({ TRUST_PROXY: 'true', TRUSTED_PROXIES: '127.0.0.1' }))).toThrow(/not both/);
  });

  it('requires a JWT_SECRET of at least 32 characters', () => {
    expect(() => loadConfig(GatewayConfig, {})).toThrow(ConfigError);
    expect(() => loadConfig(GatewayConfig, {})).toThrow(/JWT_SECRET/);
    expect(() => loadConfig(GatewayConfig, { JWT_SECRET: 'too-short' })).toThrow(/JWT_SECRET/);
  });
});
