import type { components } from '@rootline/sdk';
import { COMMON } from '../lib/strings';

/** A party as the API shows it: the name recorded, and what the gateway adds beside it (ADR 194). */
export type RecordedParty = components['schemas']['RecordedParty'];

const S = COMMON.party;

/** The words shown beside a recorded name, if any: who stated it, or the account's current name when it differs. */
export function partyNote(party: RecordedParty): string | null {
  if (party.statedBy) return S.statedBy(party.statedBy.name);
  if (party.accountName) return S.now(party.accountName);
  return null;
}

/**
 * A party's recorded name, with who stated it for a party without an account ("Green Grocer (stated by Alice)"), or
 * the account's current name beside a recorded one that differs. The recorded name comes first: it is the ledger's.
 */
export function PartyName({ party }: { party: RecordedParty }) {
  const note = partyNote(party);
  return (
    <>
      {party.name}
      {note && <span className="muted"> ({note})</span>}
    </>
  );
}
