import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bus, createNatsBus } from '@rootline/bus';
import { farmAlerted, harvestReady, transportCompleted, webhookDisabled } from '@rootline/contracts';
import { organizationMemberRoleChanged } from '@rootline/contracts/organizations';
import { transferAccepted, transferProposed } from '@rootline/contracts/transfers';
import { publishEvent, seedSession, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { createLogger, type RunningService, startService } from '@rootline/host';
import { service as notify } from '@rootline/notify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// notify on real NATS and PostgreSQL behind the gateway; farm events name the farm and its owner.
let p: TestPlatform;
let dataDir: string;
let secondBus: Bus | undefined;
let second: RunningService | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'notify-events-'));
  p = await startTestPlatform([notify], {
    DATA_DIR: dataDir,
    NOTIFY_POLL_MS: '50',
    RECIPIENT_SYNC_RETRY_MS: '100',
    UNSUBSCRIBE_SECRET: 'u'.repeat(32),
  });
});
afterAll(async () => {
  await second?.stop();
  await secondBus?.close();
  await p?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function notificationsOf(userId: string) {
  const res = await p.http('GET', '/api/notifications', { role: 'USER', sub: userId });
  return res.body.data as { type: string; title: string; body: string; link: string | null; data: object }[];
}

const transport = (handlerId: string, recipientId: string | null) => ({
  eventId: `tev_${handlerId}${recipientId ?? 'self'}`,
  kind: 'distribution',
  plantId: 'plt_0123456789ev',
  seedLotId: null,
  handlerId,
  recipientId,
  transportMode: 'bicycle',
  distanceKm: 4.2,
  kgCo2e: 0,
  eventTime: new Date().toISOString(),
  corrects: null,
});

describe('notifications from transport and farm events', () => {
  it('tells the recipient of a handoff that a plant is coming; events without another recipient notify nobody', async () => {
    await publishEvent(p.bus, transportCompleted, transport('usr_evthandler', null));
    await publishEvent(p.bus, transportCompleted, transport('usr_evthandler', 'usr_evtrecipient'));
    await expect.poll(async () => (await notificationsOf('usr_evtrecipient')).length, { timeout: 10_000 }).toBe(1);
    const [n] = await notificationsOf('usr_evtrecipient');
    expect(n).toMatchObject({
      type: 'transport-alert',
      title: 'Plant plt_0123456789ev is coming to you',
      link: '/plants/plt_0123456789ev',
    });
    expect(n!.body).toContain('4.2 km');
    expect(await notificationsOf('usr_evthandler')).toEqual([]);
  });

  it("alerts the farm's owner to readings out of range, naming the farm and the metrics", async () => {
    await publishEvent(p.bus, farmAlerted, {
      batchId: 'bat_evt0001',
      farmId: 'frm_evtfarm0001',
      farmName: 'North Tower',
      ownerId: 'usr_evtfarmer',
      deviationCount: 3,
      deviations: [
        { at: new Date().toISOString(), metric: 'temperatureC', value: 31, min: 18, max: 26 },
        { at: new Date().toISOString(), metric: 'temperatureC', value: 32, min: 18, max: 26 },
        { at: new Date().toISOString(), metric: 'humidityPct', value: 95, min: 50, max: 80 },
      ],
    });
    await expect.poll(async () => (await notificationsOf('usr_evtfarmer')).length, { timeout: 10_000 }).toBe(1);
    const [n] = await notificationsOf('usr_evtfarmer');
    expect(n).toMatchObject({ type: 'farm-alert', title: 'North Tower: readings out of range' });
    expect(n!.body).toBe('3 readings of batch bat_evt0001 fell outside the targets (temperatureC, humidityPct).');
  });

  it("tells the farm's owner a batch is ready to harvest", async () => {
    await publishEvent(p.bus, harvestReady, {
      batchId: 'bat_evt0002',
      farmId: 'frm_evtfarm0001',
      farmName: 'North Tower',
      ownerId: 'usr_evtfarmer',
      crop: 'basil',
      expectedHarvestAt: new Date().toISOString(),
    });
    await expect
      .poll(async () => (await notificationsOf('usr_evtfarmer')).map((n) => n.type), { timeout: 10_000 })
      .toContain('harvest-ready');
    const n = (await notificationsOf('usr_evtfarmer')).find((x) => x.type === 'harvest-ready')!;
    expect(n).toMatchObject({ title: 'basil is ready to harvest', link: '/vertical-farm/batch/bat_evt0002' });
  });
});

describe('notifications from organizations', () => {
  it('tells the owners and managers and the member a role change is about, but not whoever made it', async () => {
    await publishEvent(p.bus, organizationMemberRoleChanged, {
      organizationId: 'org_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      organizationName: 'Riverside Seed Library',
      audience: ['usr_orgowner', 'usr_orgmanager'],
      userId: 'usr_orgmember',
      role: 'manager',
      previousRole: 'member',
      changedBy: 'usr_orgowner',
    });
    await expect.poll(async () => (await notificationsOf('usr_orgmember')).length, { timeout: 10_000 }).toBe(1);
    const [mine] = await notificationsOf('usr_orgmember');
    expect(mine).toMatchObject({
      type: 'organization',
      title: 'Riverside Seed Library: role changed',
      body: 'You are now a manager of Riverside Seed Library (was member).',
      link: '/organizations/org_01HZX3K6Q2W8N4B7T5R9V0C1MD/members',
    });
    await expect.poll(async () => (await notificationsOf('usr_orgmanager')).length, { timeout: 10_000 }).toBe(1);
    const [theirs] = await notificationsOf('usr_orgmanager');
    expect(theirs?.body).toMatch(/ is now a manager of Riverside Seed Library \(was member\)\.$/);
    expect(await notificationsOf('usr_orgowner')).toEqual([]);
  });
});

describe('notifications of ownership transfers', () => {
  const transfer = {
    transferId: 'trf_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    subjectType: 'plant',
    subjectId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    subjectName: 'Tomato',
    fromId: 'usr_trgiver',
    fromName: 'Alice',
    toId: 'org_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    toName: 'Riverside Seed Library',
  };
  it('tells the receiving side of an offer and the giving side of its acceptance, in their words, not the actor', async () => {
    await publishEvent(
      p.bus,
      transferProposed,
      { ...transfer, audience: ['usr_trowner', 'usr_trmanager'], proposedBy: 'usr_trgiver' },
      undefined,
      { id: 'usr_trgiver', role: 'USER' },
    );
    await expect.poll(async () => (await notificationsOf('usr_trmanager')).length, { timeout: 10_000 }).toBe(1);
    expect((await notificationsOf('usr_trmanager'))[0]).toMatchObject({
      type: 'transfer',
      title: 'Tomato is offered to you',
      body: 'Alice offers to transfer Tomato to Riverside Seed Library. Accept or decline it on your transfers page.',
      link: '/transfers',
    });
    await publishEvent(
      p.bus,
      transferAccepted,
      {
        ...transfer,
        audience: ['usr_trgiver'],
        givenById: 'usr_trgiver',
        acceptedById: 'usr_trmanager',
        txId: 'tx_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      },
      undefined,
      { id: 'usr_trmanager', role: 'USER', org: { id: transfer.toId, role: 'manager', name: transfer.toName } },
    );
    await expect.poll(async () => (await notificationsOf('usr_trgiver')).length, { timeout: 10_000 }).toBe(1);
    expect((await notificationsOf('usr_trgiver'))[0]).toMatchObject({
      type: 'transfer',
      title: 'Tomato changed hands',
      link: '/plants/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    });
    // The manager who accepted heard of the offer only, not of its own acceptance.
    expect(await notificationsOf('usr_trmanager')).toHaveLength(1);
  });

  it('links the giver of an accepted seed lot to the lot’s page, named by crop, variety and harvest year', async () => {
    await publishEvent(
      p.bus,
      transferAccepted,
      {
        ...transfer,
        transferId: 'trf_01HZX3K6Q2W8N4B7T5R9V0C1MF',
        subjectType: 'seed-lot',
        subjectId: 'lot_01HZX3K6Q2W8N4B7T5R9V0C1MD',
        subjectName: 'tomato, Brandywine (2026)',
        fromId: 'usr_trlotgiver',
        audience: ['usr_trlotgiver'],
        givenById: 'usr_trlotgiver',
        acceptedById: 'usr_trmanager',
        txId: 'tx_01HZX3K6Q2W8N4B7T5R9V0C1MF',
      },
      undefined,
      { id: 'usr_trmanager', role: 'USER', org: { id: transfer.toId, role: 'manager', name: transfer.toName } },
    );
    await expect.poll(async () => (await notificationsOf('usr_trlotgiver')).length, { timeout: 10_000 }).toBe(1);
    expect((await notificationsOf('usr_trlotgiver'))[0]).toMatchObject({
      type: 'transfer',
      title: 'tomato, Brandywine (2026) changed hands',
      link: '/seed-lots/lot_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    });
  });
});

describe('recipients resynchronised from the gateway', () => {
  it('emails an account that existed before notify started, learnt from the gateway at start', async () => {
    // An account notify never heard of (no account event): made straight in the gateway's tables.
    await seedSession(p.database, 'FARM_MANAGER', 'usr_evtearly');
    const email = 'usr_evtearly@test.rootline.example';
    // A notify instance starting now asks the gateway for every account.
    secondBus = await createNatsBus({ url: p.infra.nats.url, name: 'notify-second' });
    second = await startService(notify, {
      bus: secondBus,
      database: p.database,
      log: createLogger('notify', 'silent'),
      env: { DATA_DIR: dataDir, NOTIFY_POLL_MS: '50', UNSUBSCRIBE_SECRET: 'u'.repeat(32) },
    });
    await publishEvent(p.bus, harvestReady, {
      batchId: 'bat_evt0003',
      farmId: 'frm_evtfarm0002',
      farmName: 'Old Barn',
      ownerId: 'usr_evtearly',
      crop: 'kale',
      expectedHarvestAt: new Date().toISOString(),
    });
    const mails = async () => {
      const folder = join(dataDir, 'mail');
      const names = (await readdir(folder).catch(() => [])).filter((f) => f.endsWith('.eml'));
      const texts = await Promise.all(names.map((f) => readFile(join(folder, f), 'utf8')));
      return texts.filter((t) => t.includes(email) && t.includes('kale is ready to harvest'));
    };
    await expect.poll(async () => (await mails()).length, { timeout: 15_000 }).toBe(1);
  });

  it('emails the owner of a webhook that was disabled, naming it and how to turn it back on', async () => {
    // usr_evtearly is known to notify since the resynchronisation above.
    await publishEvent(p.bus, webhookDisabled, {
      webhookId: 'whk_evtgone0001',
      ownerId: 'usr_evtearly',
      url: 'https://receiver.example.org/hooks',
      reason: 'failing',
      failingSince: '2026-11-20T08:00:00.000Z',
      disabledAt: new Date().toISOString(),
    });
    const mails = async () => {
      const folder = join(dataDir, 'mail');
      const names = (await readdir(folder).catch(() => [])).filter((f) => f.endsWith('.eml'));
      const texts = await Promise.all(names.map((f) => readFile(join(folder, f), 'utf8')));
      return texts.filter((t) => t.includes('usr_evtearly@test.rootline.example') && t.includes('whk_evtgone0001'));
    };
    await expect.poll(async () => (await mails()).length, { timeout: 15_000 }).toBe(1);
    const [mail] = await mails();
    expect(mail).toContain('A webhook of yours was disabled');
    expect(mail).toContain('since 2026-11-20T08:00:00.000Z');
  });
});
