import { Type } from '@sinclair/typebox';

/**
 * The finer reasons of a refusal, as `error.details.reason` (or `details[i].reason` for a list of field errors)
 * carries them. Stable: a client keys its own wording on them (the web app words each in its reader's language),
 * so a reason is never renamed or reused for another meaning; a new refusal gets a new reason here (ADR 260).
 * `error.message` stays an English sentence for API clients.
 */
export const REFUSAL_REASON_TEXTS = {
  // Who may do it
  'sign-in-required': 'The action needs a signed-in account',
  'bad-credentials': 'The email address or password is wrong',
  'session-ended': 'The session has ended',
  'token-expired': 'The token has expired',
  'token-invalid': 'The token is invalid',
  'token-organization': 'The API token acts for another organization',
  'not-an-organization-id': 'Rootline-Act-As does not name an organization',
  'not-a-member': 'The caller is not a member of the organization',
  'org-role': 'The caller’s role in the organization is too low',
  'not-owner': 'Only the record’s owner (or an ADMIN) may do this',
  'not-self': 'The account named must be the caller’s own',
  'admin-only': 'Only an ADMIN may do this',
  'scopes-exceed': 'The scopes asked exceed the caller’s permissions',
  CSRF: 'The request did not come from a page of this site',
  origin: 'The socket did not come from this site',
  // Accounts
  'account-not-found': 'No such account',
  'link-invalid': 'The link is invalid, used or expired',
  'email-taken': 'An account with the email address exists',
  'password-too-short': 'The password is too short',
  'password-too-long': 'The password is too long',
  'password-repeated': 'The password is one repeated character',
  'password-common': 'The password is too common',
  'password-is-email': 'The password is the email address',
  LAST_ADMIN: 'The last ADMIN cannot be demoted',
  ACCOUNT_GONE: 'The account linked to the sign-in no longer exists',
  EMAIL_NOT_VERIFIED: 'The sign-in provider did not confirm the email address',
  ACCOUNT_NOT_LINKED: 'An account has the email address but is not linked to the provider',
  STATE_MISSING: 'No sign-in is in progress in this browser',
  STATE_MISMATCH: 'The sign-in state does not match',
  PROVIDER_REFUSED: 'The sign-in provider refused',
  CODE_MISSING: 'The sign-in provider sent no code',
  PROVIDER_ERROR: 'The sign-in provider failed',
  // Organizations
  OWNER_ONLY: 'Only an owner may make owners or change an owner',
  LAST_OWNER: 'An organization keeps at least one owner',
  'member-not-found': 'The account is not a member of the organization',
  'invitation-invalid': 'The invitation is invalid, used, revoked or expired',
  'organization-not-found': 'No such organization',
  // Names of parties
  'not-account-name': 'A name other than the account’s',
  'name-required': 'A party without an account needs a name',
  // Plants and journeys
  'not-handler': 'Only the handler of an event (or an ADMIN) may correct it',
  'not-custodian': 'The handler is not a custodian of the plant or seed lot',
  'not-recipient': 'Only the recipient of a handoff may accept it',
  corrected: 'The handoff was corrected: accept its correction',
  'journey-backwards': 'A journey cannot run backwards in time',
  'plant-or-lot': 'An event names a plant or a seed lot',
  'correction-subject': 'A correction names the plant and seed lot of the event it corrects',
  'not-in-journey': 'Not an event of this journey',
  'bad-public-key': 'Not an Ed25519 public key',
  // Marketplace
  'own-listing': 'A seller cannot make an offer on their own listing',
  'not-your-turn': 'The other party answers this offer next',
  'listing-closed': 'The listing is sold, cancelled or withdrawn and cannot change',
  'listing-state': 'The listing’s state does not allow this change',
  'listing-sold-out': 'The listing has nothing left to sell',
  'listing-not-open': 'The listing takes no offers',
  'offer-state': 'The offer’s state does not allow this',
  'quantity-over-available': 'More than the listing has',
  'not-enough-left': 'The listing has less left than the offer asks',
  'not-buyer': 'Only the buyer may review a sale',
  'offer-not-accepted': 'Only an accepted offer can be reviewed',
  'already-reviewed': 'The sale has been reviewed',
  'not-an-image': 'The file is no image',
  // Demand
  'too-few-households': 'The region has too few households to show',
  'probe-limit': 'The day’s lookups for the crop are used up',
  // Environment and readings
  'no-category': 'A record needs at least one category',
  'in-future': 'The time is in the future',
  'invalid-time': 'Not a valid time',
  'from-after-to': 'The start is after the end',
  'invalid-date': 'Not a real calendar day',
  'range-too-long': 'The period is longer than allowed',
  'window-invalid': 'The window runs backwards or is too long',
  'lat-lon-together': 'Latitude and longitude go together',
  'too-many-kinds': 'Too many kinds of events asked for',
  'epcis-kind': 'An EPCIS export holds transport events only',
  'label-start': 'The first label is beyond the page',
  // Farms
  'batch-germinating': 'The batch is germinating',
  'batch-growing': 'The batch is growing',
  'batch-ready': 'The batch is ready',
  'batch-harvested': 'The batch is harvested',
  'batch-failed': 'The batch failed',
  'batch-harvesting': 'The batch is being harvested',
  'batch-closed': 'The batch is closed',
  'zone-capacity': 'The zone has too few free plant sites',
  'before-start': 'The reading is before the batch started',
  'start-too-early': 'The start is earlier than the recipe’s cycle allows',
  'recipe-crop': 'The recipe is for another crop',
  'phase-twice': 'A recipe phase appears twice',
  'min-above-max': 'A target’s minimum is above its maximum',
  // Files and photos
  'file-too-large': 'The file is larger than the limit',
  'attach-not-allowed': 'Files cannot be attached to this kind of record',
  'entity-pair': 'The kind of record and its id go together',
  type: 'The file’s type is not accepted',
  corrupt: 'The file cannot be read as its type',
  unreadable: 'The image cannot be read',
  'pixel-limit': 'The image has too many pixels',
  'zip-bomb': 'The document unpacks to too much',
  'zip-path': 'The document holds an unsafe path',
  'not-uploaded': 'The upload did not arrive',
  expired: 'The upload expired',
  entry: 'A part of the document cannot be read',
  file: 'The file is missing',
  error: 'The file could not be checked',
  'not-configured': 'Plant identification is not set up here',
  'provider-failed': 'The identification service did not answer',
  'photo-count': 'Identification takes one to five photos',
  'organ-per-photo': 'Each photo needs the part of the plant it shows',
  // Signatures and webhooks
  'proof-invalid': 'The proof of the key does not verify',
  'key-of-another-user': 'The key is registered by another user',
  'challenge-unknown': 'No such challenge',
  'challenge-not-yours': 'The challenge was issued to another user',
  'challenge-used': 'The challenge was used',
  'challenge-expired': 'The challenge expired',
  'not-a-party': 'Only a party may sign or read the statement',
  'key-revoked': 'The key was deleted',
  'signature-invalid': 'The signature does not verify',
  'webhook-disabled': 'The webhook is disabled',
  'not-public-kind': 'Not a public event kind',
  'area-invalid': 'The area cannot be matched',
  'already-revoked': 'The certificate is revoked already',
  // Transfers
  'same-owner': 'The recipient owns the record already',
  'lot-discarded': 'A discarded seed lot cannot be transferred',
  'lot-empty': 'A seed lot with nothing left cannot be transferred',
  'transfer-pending': 'The record has a pending transfer already',
  accepting: 'The pending transfer is being accepted',
  'owner-changed': 'The record changed owner since the transfer was proposed',
  'not-giver': 'Only the giving side may cancel the transfer',
  'not-pending': 'The transfer is no longer pending',
  'unknown-recipient': 'No account or organization has the id',
  // Seed lots
  discarded: 'The seed lot was discarded and no longer changes',
  'empty-change': 'A change names at least one field',
  'loan-exceeds-lot': 'The loan asks more seed than the lot holds',
  'due-passed': 'The loan’s due season has ended already',
  'not-grown-from-loan': 'A plant was not grown by the borrower from the loaned lot',
  'loan-returned': 'The loan has been returned already',
  'not-borrower': 'Only the borrower returns a loan',
  // Lineage across nodes
  'one-parent': 'A propagation names its parent once: on this node or on a peer',
  'unknown-peer': 'This node has no peer of that name',
  'not-on-peer': 'The peer has no such plant',
  'peer-forked': 'The peer’s log forked: its records are not accepted',
  'peer-unreachable': 'The peer did not answer',
  'bundle-unverified': 'The peer’s proof of the plant does not verify',
  // Seed handed across nodes
  'exceeds-lot': 'The handoff asks more seed than the lot holds',
  'not-a-handoff': 'The peer’s transaction is not a seed handoff with that id',
  'handoff-claimed': 'Another account has received the handoff already',
  'not-forked': 'The peer’s log is not a fork: there is nothing to clear',
  // EPCIS queries
  'not-a-geo-uri': 'Not a geo URI (geo:<latitude>,<longitude>)',
  'unknown-token': 'The page token is not one this server gave',
  // Requests
  'in-flight': 'A request with this Idempotency-Key is still in progress',
} as const satisfies Record<string, string>;

export type RefusalReason = keyof typeof REFUSAL_REASON_TEXTS;

/** Every reason a refusal may carry, for clients and the tests that check each is worded. */
export const REFUSAL_REASONS = Object.keys(REFUSAL_REASON_TEXTS) as RefusalReason[];

export const RefusalReasonSchema = Type.Union(
  REFUSAL_REASONS.map((r) => Type.Literal(r)),
  { description: 'Why, finer than the code: stable, for a client to word in its own language (ADR 260)' },
);

/** One object of `error.details`: the failing field, the reason, and what else explains it. */
export type ErrorDetail = { readonly reason?: RefusalReason; readonly [key: string]: unknown };

/** What `error.details` holds: one detail, or one per failing field. */
export type ErrorDetails = ErrorDetail | readonly ErrorDetail[];
