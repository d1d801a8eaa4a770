import { service as chainMiner } from '@rootline/chain-miner';
import { actingCaller, seedOrganization, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as plants } from '@rootline/plants';
import { plantInput } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service as transparency } from '../src/service.js';

// An accepted transfer on the audit log: its entry names the manager who accepted and the organization they acted
// for, and its statement (the `ownership-transfer` signature subject of a `trf_…` id) is its parties' to read and sign.
describe('an accepted transfer on the audit log and as a signature subject', () => {
  let p: TestPlatform;
  let orgId = '';
  let transferId = '';
  const tokens: Record<string, string> = {};
  const as = actingCaller(
    () => p,
    tokens,
    () => orgId,
  );

  beforeAll(async () => {
    p = await startTestPlatform([chainMiner, plants, transparency], { CHAIN_DIFFICULTY: '8' });
    for (const sub of ['usr_sig_alice', 'usr_sig_manager', 'usr_sig_outsider'])
      tokens[sub] = await p.token('USER', sub);
    tokens.usr_sig_admin = await p.token('ADMIN', 'usr_sig_admin');
    orgId = await seedOrganization(p.database, 'Riverside Seed Library', { usr_sig_manager: 'manager' });
    const plant = await as(
      'usr_sig_alice',
      'POST',
      '/api/plants/register',
      plantInput({ owner: { id: 'usr_sig_alice' } }),
      true,
    );
    expect(plant.status, JSON.stringify(plant.body)).toBe(201);
    const offered = await as(
      'usr_sig_alice',
      'POST',
      '/api/transfers',
      { subjectType: 'plant', subjectId: plant.body.data.id, to: { id: orgId } },
      true,
    );
    expect(offered.status, JSON.stringify(offered.body)).toBe(201);
    transferId = offered.body.data.id;
    const accepted = await as('usr_sig_manager', 'POST', `/api/transfers/${transferId}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });
  afterAll(async () => p?.stop());

  const statement = (sub: string) =>
    as(
      sub,
      'GET',
      `/api/transparency/signatures/statement?subjectType=ownership-transfer&subjectId=${transferId}`,
      undefined,
      true,
    );

  it('records the acceptance with the person as actor and the organization acted for beside it', async () => {
    let entry: { actor: string; actingFor?: unknown; data: Record<string, unknown> } | undefined;
    await expect
      .poll(
        async () => {
          const res = await as(
            'usr_sig_admin',
            'GET',
            '/api/transparency/audit?kind=evt.plants.transfer.accepted',
            undefined,
            true,
          );
          entry = res.body.data?.[0];
          return entry !== undefined;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(entry).toMatchObject({
      actor: 'usr_sig_manager',
      actingFor: { id: orgId, name: 'Riverside Seed Library' },
      data: { transferId, fromId: 'usr_sig_alice', toId: orgId, acceptedById: 'usr_sig_manager' },
    });
  });

  it('gives its statement to the giver and the manager who accepted, and to no one else', async () => {
    const mine = await statement('usr_sig_alice');
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data.statement).toMatchObject({
      type: 'ownership-transfer',
      id: transferId,
      event: { subject: 'evt.plants.transfer.accepted', data: { transferId } },
    });
    expect((await statement('usr_sig_manager')).body.data.sha256).toBe(mine.body.data.sha256);
    const outsider = await statement('usr_sig_outsider');
    expect(outsider.status).toBe(403);
    expect(outsider.body.error.details).toMatchObject({ reason: 'not-a-party' });
  });
});
