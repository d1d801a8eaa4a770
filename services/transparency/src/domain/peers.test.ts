import { generateKeyPairSync } from 'node:crypto';
import type { ProofBundle } from '@rootline/contracts/transparency-public';
import { consistencyRanges, inclusionProof, leafHash, rootOfHashes } from '@rootline/domain';
import { describe, expect, it } from 'vitest';
import { COSIGNATURE_V1, ED25519, parseCheckpoint, vkeyOf } from './cosignature.js';
import {
  checkPeerBundle,
  judgeMirror,
  openPeerCheckpoint,
  parsePeers,
  proofNeeded,
  withPeerLogs,
  withPeerWitnesses,
} from './peers.js';
import { checkpointText, signNote } from './signed-note.js';

const ORIGIN = 'b.test/api/transparency/log';
const log = generateKeyPairSync('ed25519');
const witness = generateKeyPairSync('ed25519');
const LOG_VKEY = vkeyOf(ORIGIN, ED25519, log.publicKey);
const W_VKEY = vkeyOf('b.test/api/transparency/witness', COSIGNATURE_V1, witness.publicKey);
const [peer] = parsePeers(`b https://b.test/ ${LOG_VKEY} ${W_VKEY}`);

const leaves = Array.from({ length: 20 }, (_, i) => leafHash(Buffer.from(`entry ${i}`)));
const root = (n: number) => rootOfHashes(leaves.slice(0, n)).toString('hex');
const proof = (m: number, n: number) => consistencyRanges(m, n).map((r) => rootOfHashes(leaves.slice(r.lo, r.hi)));
const note = (n: number, rootHex = root(n), keys = log) =>
  signNote(checkpointText(ORIGIN, n, rootHex), ORIGIN, keys.privateKey, keys.publicKey);
const seen = (n: number, rootHex = root(n)) => parseCheckpoint(checkpointText(ORIGIN, n, rootHex));

describe('peers', () => {
  it('reads PEERS: name, address, log key naming the origin, witness key at the witness prefix', () => {
    expect(peer).toMatchObject({ name: 'b', url: 'https://b.test', origin: ORIGIN });
    expect(peer!.witness).toMatchObject({ vkey: W_VKEY, url: 'https://b.test/api/transparency/witness' });
    expect(parsePeers(undefined)).toEqual([]);
    expect(() => parsePeers(`b https://b.test ${LOG_VKEY}`)).toThrow(/<witness verifier key>/);
    expect(() => parsePeers(`B_1 https://b.test ${LOG_VKEY} ${W_VKEY}`)).toThrow(/peer name/);
    expect(() => parsePeers(`b ftp://b.test ${LOG_VKEY} ${W_VKEY}`)).toThrow(/http/);
    expect(() => parsePeers(`b https://b.test ${W_VKEY} ${LOG_VKEY}`)).toThrow(/type 0x01/);
    expect(() => parsePeers(`b https://b.test ${LOG_VKEY} ${W_VKEY}, b https://c.test ${LOG_VKEY} ${W_VKEY}`)).toThrow(
      /twice/,
    );
  });

  it('makes each peer a followed log and a witness to ask, without repeating one already set', () => {
    const logs = withPeerLogs(new Map(), [peer!]);
    expect([...logs.keys()]).toEqual([ORIGIN]);
    expect(withPeerLogs(logs, [peer!]).get(ORIGIN)).toHaveLength(1);
    expect(withPeerWitnesses([], [peer!]).map((w) => w.vkey)).toEqual([W_VKEY]);
    expect(withPeerWitnesses([peer!.witness], [peer!])).toHaveLength(1);
  });

  it('opens only checkpoints of the peer’s origin signed by its log key', () => {
    expect(openPeerCheckpoint(peer!, note(5))).toMatchObject({ size: 5, rootHash: root(5) });
    expect(() => openPeerCheckpoint(peer!, note(5, root(5), generateKeyPairSync('ed25519')))).toThrow(/signature/);
    const other = signNote(checkpointText('c.test/log', 5, root(5)), 'c.test/log', log.privateKey, log.publicKey);
    expect(() => openPeerCheckpoint(peer!, other)).toThrow(/origin/);
  });

  it('advances the mirror along consistent checkpoints, and calls anything else a fork', () => {
    expect(judgeMirror(null, seen(5), [])).toEqual({ outcome: 'advance' });
    const held = { size: 5, rootHash: root(5) };
    expect(proofNeeded(held, seen(12))).toEqual({ first: 5, second: 12 });
    expect(proofNeeded(held, seen(5))).toBeNull();
    expect(judgeMirror(held, seen(5), [])).toEqual({ outcome: 'same' });
    expect(judgeMirror(held, seen(12), proof(5, 12))).toEqual({ outcome: 'advance' });
    expect(judgeMirror(held, seen(3), proof(3, 5))).toEqual({ outcome: 'older' });
    expect(judgeMirror(held, seen(5, root(6)), []).outcome).toBe('fork');
    expect(judgeMirror(held, seen(12), proof(6, 12)).outcome).toBe('fork');
    expect(judgeMirror(held, seen(12, root(13)), proof(5, 12)).outcome).toBe('fork');
    expect(judgeMirror(held, seen(3, root(2)), proof(3, 5)).outcome).toBe('fork');
  });

  it('checks a peer’s bundle: the entry asked for, its inclusion in the signed checkpoint', () => {
    const index = 7;
    const good = {
      plantId: 'plt_0123456789ab',
      transaction: { id: 'tx_0123456789ab' },
      auditEntry: { index, leafHash: leaves[index]!.toString('hex') },
      auditProof: {
        index,
        treeSize: 12,
        leafHash: leaves[index]!.toString('hex'),
        auditPath: inclusionProof(leaves.slice(0, 12), index).map((h) => h.toString('hex')),
        rootHash: root(12),
      },
      checkpoint: note(12),
    } as unknown as ProofBundle;
    expect(checkPeerBundle(peer!, 'plt_0123456789ab', good)).toMatchObject({ size: 12, rootHash: root(12) });
    expect(checkPeerBundle(peer!, 'tx_0123456789ab', good).size).toBe(12);
    expect(() => checkPeerBundle(peer!, 'plt_otherplant00', good)).toThrow(/bundle of/);
    const path = [...good.auditProof!.auditPath];
    path[0] = root(1);
    expect(() =>
      checkPeerBundle(peer!, 'plt_0123456789ab', { ...good, auditProof: { ...good.auditProof!, auditPath: path } }),
    ).toThrow(/does not lead/);
    expect(() => checkPeerBundle(peer!, 'plt_0123456789ab', { ...good, checkpoint: note(13) })).toThrow(
      /not of the bundle’s checkpoint/,
    );
    expect(() => checkPeerBundle(peer!, 'plt_0123456789ab', { ...good, auditProof: null })).toThrow(/no audit entry/);
    const forged = { ...good, checkpoint: note(12, root(12), generateKeyPairSync('ed25519')) };
    expect(() => checkPeerBundle(peer!, 'plt_0123456789ab', forged)).toThrow(/signature/);
  });
});
