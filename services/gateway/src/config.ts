import { withBase } from '@rootline/host';
import { type Static, Type } from '@sinclair/typebox';

/** Settings of the HTTP gateway: the shared base settings plus its own. */
export const GatewayConfig = withBase({
  PORT: Type.Integer({ default: 3000, minimum: 0, maximum: 65_535 }),
  HOST: Type.String({ default: '0.0.0.0', minLength: 1 }),
  /** HS256 key of bearer tokens; 32 characters at least so it cannot be guessed by brute force. */
  JWT_SECRET: Type.String({ minLength: 32 }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 1_048_576, minimum: 1 }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ default: 100, minimum: 1 }),
  /** Public address of the API, listed as the server in the OpenAPI document. */
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
});
export type GatewayConfig = Static<typeof GatewayConfig>;
