import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Bus, createNatsBus } from '@rootline/bus';
import { newId, userRegistered } from '@rootline/contracts';
import { type Database, openDatabase } from '@rootline/db';
import { createLogger, type RunningService, startService } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service } from '../src/service.js';

/** Without SMTP settings (as in embedded mode), emails become .eml files under DATA_DIR, and the log says where. */
describe('emails as files when no SMTP server is configured', () => {
  let infra: TestInfra;
  let database: Database;
  let bus: Bus;
  let client: Bus;
  let notify: RunningService;
  let dataDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    infra = await startTestInfra();
    dataDir = await mkdtemp(join(tmpdir(), 'notify-eml-'));
    database = await openDatabase({ url: infra.pg.url, dataDir });
    bus = await createNatsBus({ url: infra.nats.url, name: 'notify' });
    client = await createNatsBus({ url: infra.nats.url, name: 'test-client' });
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger('notify', 'info', sink);
    notify = await startService(service, {
      bus,
      database,
      log,
      // Rounds only once a minute: an email leaves within the test because recording it woke the sender.
      env: { DATA_DIR: dataDir, NOTIFY_POLL_MS: '60000', JWT_SECRET: 'j'.repeat(32) },
    });
  });
  afterAll(async () => {
    await notify?.stop();
    await client?.close();
    await bus?.close();
    await database?.close();
    await infra?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('says at start-up where the emails go', () => {
    const folder = join(dataDir, 'mail');
    expect(lines.some((l) => l.includes(`emails are sent to files under ${folder}`))).toBe(true);
  });

  it('writes the welcome email as an .eml file with text, HTML and the unsubscribe header', async () => {
    await client.publish({
      id: newId('evt', Date.now()),
      subject: userRegistered.subject,
      occurredAt: new Date().toISOString(),
      payload: {
        userId: 'usr_files',
        email: 'files@example.org',
        name: 'Fay Files',
        method: 'password',
        registeredAt: new Date().toISOString(),
      },
      headers: { 'x-request-id': 'req_files' },
    });
    const folder = join(dataDir, 'mail');
    const files = async () => (await readdir(folder).catch(() => [])).filter((f) => f.endsWith('.eml'));
    await expect.poll(async () => (await files()).length, { timeout: 10_000 }).toBe(1);
    const [file] = await files();
    const eml = await readFile(join(folder, file as string), 'utf8');
    expect(eml).toContain('To: files@example.org');
    expect(eml).toContain('Subject: Welcome to Rootline');
    expect(eml).toContain('Content-Type: text/plain');
    expect(eml).toContain('Content-Type: text/html');
    expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(eml).toMatch(/Message-ID: <dlv_[0-9A-Z]{26}@rootline>/);
  });
});
