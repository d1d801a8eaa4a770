export {
  ACT_AS_HEADER,
  CSRF_HEADER,
  createRootline,
  IDEMPOTENCY_HEADER,
  idempotencyKey,
  type RetryOptions,
  type RootlineClient,
  RootlineError,
  type RootlineOptions,
  type SignInResult,
  withRetry,
} from './client.js';
export type { components, operations, paths } from './generated/schema.js';
export { type PagedPath, type PageItem, type PaginateOptions, type Pagination, paginate } from './paginate.js';
export {
  backoffDelay,
  connectRealtime,
  type Realtime,
  type RealtimeEvent,
  type RealtimeOptions,
  type RealtimeState,
  type RoomHandlers,
  roomsOfPublicEvent,
  SESSION_ENDED,
  type WebSocketFactory,
  type WebSocketLike,
} from './realtime.js';
export {
  auditEntryLeafHash,
  type InclusionProof,
  importPublicKey,
  leafHash,
  type PlatformPublicKey,
  type PublicKeyInput,
  rootFromPath,
  type SignedCertificate,
  type SignedTreeHead,
  type Verification,
  verifyCertificate,
  verifyInclusion,
  verifyTreeHead,
} from './transparency.js';
export {
  verifyWebhook,
  type WebhookInput,
  type WebhookPayload,
  type WebhookVerification,
  webhookKey,
} from './webhooks.js';
