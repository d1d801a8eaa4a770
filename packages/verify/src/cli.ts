import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import canonicalize from 'canonicalize';
import { type ProofBundle, verifyBundle } from './bundle.js';
import { type SignedCertificate, type SignedRevocationList, verifyCertificate } from './certificate.js';
import { keySetFrom, type TrustedKey } from './keys.js';
import { hash32, leafHash, verifyConsistency, verifyInclusion } from './merkle.js';
import { ForkDetected, monitor, pollOnce } from './monitor.js';
import { BadSignature, openNote, parseCheckpoint } from './note.js';
import { certificateFromPdf } from './pdf.js';
import { type Report, reporter } from './report.js';
import { cosignaturesOf, NotEnoughCosignatures, parseWitnessPolicy, type WitnessPolicy } from './witness.js';

const USAGE = `rootline-verify: check Rootline's certificates, ledger proofs and audit log offline

  rootline-verify certificate <certificate.json|certificate.pdf> --keys <keys.json> [--revocations <list.json>]
  rootline-verify bundle <bundle.json> --keys <keys.json> [--witnesses <policy.json>]
  rootline-verify inclusion <proof.json> --checkpoint <checkpoint.json|note> --keys <keys.json> [--entry <entry.json>]
                  [--witnesses <policy.json>]
  rootline-verify consistency <older> <newer> --proof <proof.json> --keys <keys.json> [--witnesses <policy.json>]
  rootline-verify compare <checkpoint> <checkpoint> --keys <keys.json> [--witnesses <policy.json>]
  rootline-verify monitor <https://rootline.example.org> --state <dir> [--interval <seconds>] [--once]
                  [--witnesses <policy.json>]

keys.json is the platform's key set (GET /api/transparency/audit/keys), fetched once and kept. policy.json is a
witness policy, {"witnesses": ["<cosigner verifier key>", …], "threshold": n}: a checkpoint counts only with valid
cosignatures (c2sp.org/tlog-cosignature) of at least n of those witnesses. compare fails when two checkpoints of one
size differ (a fork). Exit status: 0 when everything verifies, 2 when something does not (tampering, a fork, a bad
signature, too few cosignatures), 1 on a usage or read error.`;

/** Exit statuses. */
export const EXIT = { ok: 0, error: 1, failed: 2 } as const;

async function json(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** A checkpoint note from a file holding the note itself or a JSON answer with `note`. */
async function noteFrom(file: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  if (!text.trimStart().startsWith('{')) return text;
  const parsed = JSON.parse(text) as { note?: string; data?: { note?: string } };
  const note = parsed.note ?? parsed.data?.note;
  if (!note) throw new Error(`${file} holds no checkpoint note`);
  return note;
}

/** The `data` of an API answer (the envelope `{ success, data, … }`), or the JSON itself. */
const dataOf = <T>(j: unknown): T =>
  (typeof j === 'object' && j !== null && 'success' in j ? (j as unknown as { data: unknown }).data : j) as T;

function print(report: Report, out: (line: string) => void): number {
  for (const c of report.checks) out(`${c.ok ? 'ok  ' : 'FAIL'} ${c.check}${c.detail ? ` (${c.detail})` : ''}`);
  out(report.ok ? 'VERIFIED' : 'NOT VERIFIED');
  return report.ok ? EXIT.ok : EXIT.failed;
}

function checkpointReport(note: string, keys: readonly TrustedKey[]) {
  const { text, signedBy } = openNote(
    note,
    keys.map((k) => k.note),
  );
  return { ...parseCheckpoint(text), signedBy };
}

/** Adds the witness policy's check of a checkpoint note to a report. */
function cosignatureCheck(r: ReturnType<typeof reporter>, note: string, policy: WitnessPolicy, what = 'checkpoint') {
  const valid = cosignaturesOf(note, policy);
  r.check(
    `${what} cosigned by enough witnesses`,
    valid.length >= policy.threshold,
    `${valid.length} of ${policy.witnesses.length}, ${policy.threshold} needed${valid.length ? `: ${valid.map((v) => v.witness).join(', ')}` : ''}`,
  );
}

/** Runs the command line; answers the exit status. */
export async function run(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      keys: { type: 'string' },
      revocations: { type: 'string' },
      checkpoint: { type: 'string' },
      entry: { type: 'string' },
      proof: { type: 'string' },
      witnesses: { type: 'string' },
      state: { type: 'string' },
      interval: { type: 'string', default: '60' },
      once: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return values.help ? EXIT.ok : EXIT.error;
  }
  const keys = async () => {
    if (!values.keys) throw new Error('--keys <keys.json> is needed');
    return keySetFrom(await json(values.keys));
  };
  const policy = async () => (values.witnesses ? parseWitnessPolicy(await json(values.witnesses)) : undefined);
  try {
    switch (command) {
      case 'certificate': {
        const file = args[0];
        if (!file) throw new Error('name the certificate file');
        const raw = await readFile(file);
        const signed = (
          raw.subarray(0, 5).toString('latin1') === '%PDF-'
            ? certificateFromPdf(raw)
            : dataOf<{ signed?: unknown }>(JSON.parse(raw.toString('utf8')))
        ) as SignedCertificate & { signed?: SignedCertificate };
        const revocations = values.revocations
          ? dataOf<SignedRevocationList>(await json(values.revocations))
          : undefined;
        return print(verifyCertificate(signed.signed ?? signed, await keys(), revocations), out);
      }
      case 'bundle': {
        if (!args[0]) throw new Error('name the bundle file');
        return print(verifyBundle(dataOf<ProofBundle>(await json(args[0])), await keys(), await policy()), out);
      }
      case 'inclusion': {
        if (!args[0] || !values.checkpoint) throw new Error('name the proof file and --checkpoint');
        const p = dataOf<{ index: number; treeSize: number; leafHash: string; auditPath: string[] }>(
          await json(args[0]),
        );
        const r = reporter();
        const note = await noteFrom(values.checkpoint);
        const cp = checkpointReport(note, await keys());
        r.check('checkpoint signature', true, `${cp.origin}, key ${cp.signedBy.name}+${cp.signedBy.id}`);
        const witnesses = await policy();
        if (witnesses) cosignatureCheck(r, note, witnesses);
        r.check('proof is for the checkpoint’s size', p.treeSize === cp.size, `${p.treeSize} and ${cp.size}`);
        if (values.entry) {
          const e = dataOf<{ entry: unknown; leafHash: string }>(await json(values.entry));
          if (e.entry) {
            const leaf = leafHash(Buffer.from(canonicalize(e.entry) as string, 'utf8')).toString('hex');
            r.check('entry hashes to the proof’s leaf', leaf === p.leafHash && e.leafHash === p.leafHash);
          } else {
            r.check('entry leaf', e.leafHash === p.leafHash, 'content not public: its leaf hash only');
          }
        }
        r.check(
          'entry in the checkpoint’s tree',
          verifyInclusion(
            p.index,
            p.treeSize,
            hash32(p.leafHash, 'leaf'),
            p.auditPath.map((h) => hash32(h, 'path hash')),
            hash32(cp.rootHash, 'root'),
          ),
        );
        return print(r.report(), out);
      }
      case 'consistency': {
        const [older, newer] = args;
        if (!older || !newer || !values.proof) throw new Error('name two checkpoints and --proof');
        const k = await keys();
        const [olderNote, newerNote] = [await noteFrom(older), await noteFrom(newer)];
        const a = checkpointReport(olderNote, k);
        const b = checkpointReport(newerNote, k);
        const p = dataOf<{ proof: string[] }>(await json(values.proof));
        const r = reporter();
        r.check('both checkpoints signed by platform keys', true);
        const witnesses = await policy();
        if (witnesses) {
          cosignatureCheck(r, olderNote, witnesses, 'older checkpoint');
          cosignatureCheck(r, newerNote, witnesses, 'newer checkpoint');
        }
        r.check('same log', a.origin === b.origin, `${a.origin}, ${b.origin}`);
        r.check(
          'the older tree is a prefix of the newer (no fork)',
          verifyConsistency(
            a.size,
            b.size,
            hash32(a.rootHash, 'root'),
            hash32(b.rootHash, 'root'),
            p.proof.map((h) => hash32(h, 'proof hash')),
          ),
          `${a.size} → ${b.size}`,
        );
        return print(r.report(), out);
      }
      case 'compare': {
        const [first, second] = args;
        if (!first || !second) throw new Error('name two checkpoints');
        const k = await keys();
        const notes = [await noteFrom(first), await noteFrom(second)];
        const [a, b] = notes.map((n) => checkpointReport(n, k)) as [
          ReturnType<typeof checkpointReport>,
          ReturnType<typeof checkpointReport>,
        ];
        const r = reporter();
        r.check('both checkpoints signed by platform keys', true);
        const witnesses = await policy();
        if (witnesses) {
          cosignatureCheck(r, notes[0]!, witnesses, 'first checkpoint');
          cosignatureCheck(r, notes[1]!, witnesses, 'second checkpoint');
        }
        r.check('same log', a.origin === b.origin, `${a.origin}, ${b.origin}`);
        if (a.size === b.size) {
          r.check(
            `one root for ${a.size} entries (no fork)`,
            a.rootHash === b.rootHash,
            a.rootHash === b.rootHash ? a.rootHash : `fork: ${a.rootHash} and ${b.rootHash}`,
          );
        } else {
          r.check('sizes differ', true, `${a.size} and ${b.size}: check them with \`consistency\``);
        }
        return print(r.report(), out);
      }
      case 'monitor': {
        const baseUrl = args[0]?.replace(/\/$/, '');
        if (!baseUrl || !values.state) throw new Error('name the platform address and --state <dir>');
        const witnesses = await policy();
        const opts = { baseUrl, stateDir: values.state, log: out, ...(witnesses ? { witnesses } : {}) };
        if (values.once) await pollOnce(opts);
        else await monitor({ ...opts, intervalMs: Number(values.interval) * 1000 });
        return EXIT.ok;
      }
      default:
        out(USAGE);
        return EXIT.error;
    }
  } catch (err) {
    if (err instanceof ForkDetected || err instanceof BadSignature) {
      const what =
        err instanceof ForkDetected
          ? 'fork detected'
          : err instanceof NotEnoughCosignatures
            ? 'not enough cosignatures'
            : 'bad signature';
      out(`FAIL ${what}: ${err.message}`);
      return EXIT.failed;
    }
    out(`error: ${(err as Error).message}`);
    return EXIT.error;
  }
}
