import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Actor,
  demandMatched,
  type EventDef,
  newId,
  offerAccepted,
  offerMade,
  type PayloadOf,
  plantRegistered,
} from '@rootline/contracts';
import { publishEvent, startTestPlatform, type TestPlatform } from '@rootline/gateway/testing';
import { service as notify } from '@rootline/notify';
import { type ParsedMail, startTestSmtp, type TestSmtp } from '@rootline/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PUBLIC_URL = 'https://rootline.test';
const PASSWORD = 'correct horse battery staple';
let p: TestPlatform;
let smtp: TestSmtp;
let dataDir: string;

beforeAll(async () => {
  smtp = await startTestSmtp();
  dataDir = await mkdtemp(join(tmpdir(), 'notify-mail-'));
  p = await startTestPlatform([notify], {
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    PUBLIC_URL,
    NOTIFY_POLL_MS: '50',
    NOTIFY_RETRY_BASE_MS: '50',
    UNSUBSCRIBE_SECRET: 'u'.repeat(32),
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
  });
});
afterAll(async () => {
  await p?.stop();
  await smtp?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Registers an account through the gateway, as a person would. */
async function account(email: string, name = 'Ada Grower'): Promise<string> {
  const res = await p.http('POST', '/api/auth/register', { body: { email, password: PASSWORD, name } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** Publishes an event as its owning service would (the services themselves are not part of this test). */
const publish = <E extends EventDef>(def: E, payload: PayloadOf<E>, id = newId('evt', Date.now()), actor?: Actor) =>
  publishEvent(p.bus, def, payload, id, actor);

/** The first email to `to` whose subject matches, once it has arrived. */
async function mailTo(to: string, subject: RegExp): Promise<ParsedMail> {
  const find = () =>
    smtp.received.find((m) => m.to && JSON.stringify(m.to).includes(to) && subject.test(m.subject ?? ''));
  await expect.poll(find, { timeout: 10_000 }).toBeTruthy();
  return find() as ParsedMail;
}

/** A header as the message carries it (mailparser folds the List-* headers into one object). */
function header(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name)?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

async function notificationsOf(userId: string, query = '') {
  return p.http('GET', `/api/notifications${query}`, { role: 'USER', sub: userId });
}

describe('messages in the recipient’s language', () => {
  it('welcomes an account registered in Dutch in Dutch, in the app and by email', async () => {
    const res = await p.http('POST', '/api/auth/register', {
      body: { email: 'anne@example.org', password: PASSWORD, name: 'Anne de Vries', locale: 'nl' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.locale).toBe('nl');
    const welcome = await mailTo('anne@example.org', /Welkom bij Rootline/);
    expect(welcome.text).toMatch(/^Hallo Anne de Vries,/);
    expect(welcome.text).toContain('Je account is klaar.');
    expect(welcome.text).toContain('Wil je deze e-mails niet meer ontvangen, open dan');
    const verify = await mailTo('anne@example.org', /Bevestig je e-mailadres/);
    expect(verify.text).toContain('Open deze link om je adres te bevestigen');
    const inbox = await notificationsOf(res.body.data.id as string);
    expect(inbox.body.data.map((n: { title: string }) => n.title)).toContain('Welkom bij Rootline');
  });

  it('writes in the language the owner chose later, and keeps it on the account', async () => {
    const id = await account('jonas@example.org', 'Jonas Weber');
    await mailTo('jonas@example.org', /Welcome to Rootline/);
    const chosen = await p.http('PATCH', '/api/auth/account', { role: 'USER', sub: id, body: { locale: 'de' } });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toMatchObject({ id, locale: 'de' });
    const session = await p.http('GET', '/api/auth/session', { role: 'USER', sub: id });
    expect(session.body.data.user.locale).toBe('de');
    // notify learns the choice from the account's event, before the reset is asked for.
    await expect
      .poll(
        async () =>
          (
            (await p.database.db.execute(sql`select locale from notify.recipients where user_id = ${id}`)) as unknown[]
          )[0],
      )
      .toMatchObject({ locale: 'de' });
    await p.http('POST', '/api/auth/forgot-password', { body: { email: 'jonas@example.org' } });
    const reset = await mailTo('jonas@example.org', /Setze dein Passwort zurück/);
    expect(reset.text).toMatch(/^Hallo Jonas Weber,/);
    expect(reset.text).toContain('Öffne diesen Link, um ein neues Passwort zu wählen');
  });

  it('refuses a language the app is not written in', async () => {
    const id = await account('ines@example.org', 'Ines');
    const res = await p.http('PATCH', '/api/auth/account', { role: 'USER', sub: id, body: { locale: 'it' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
  });
});

describe('account emails and welcome', () => {
  it('welcomes a new account in the app and by email, and sends a verification link that works', async () => {
    const id = await account('ada@example.org');
    await expect.poll(async () => (await notificationsOf(id)).body.data?.length, { timeout: 10_000 }).toBe(1);
    const list = await notificationsOf(id);
    expect(list.body.data[0]).toMatchObject({
      type: 'welcome',
      title: 'Welcome to Rootline',
      read: false,
      readAt: null,
    });
    expect(list.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });

    const welcome = await mailTo('ada@example.org', /Welcome/);
    expect(welcome.text).toContain('Hello Ada Grower,');
    expect(welcome.html).toContain('<p>');
    expect(welcome.text).toContain(`${PUBLIC_URL}/unsubscribe?token=`);
    expect(header(welcome, 'list-unsubscribe')).toMatch(
      /^<https:\/\/rootline\.test\/api\/notifications\/unsubscribe\?token=/,
    );
    expect(header(welcome, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    const verify = await mailTo('ada@example.org', /Confirm your email/);
    expect(verify.text).not.toContain('unsubscribe');
    const link = /https:\/\/rootline\.test(\/verify-email\?token=[^\s]+)/.exec(verify.text ?? '');
    expect(link).toBeTruthy();
    const token = decodeURIComponent(new URL(`${PUBLIC_URL}${link?.[1]}`).searchParams.get('token') ?? '');
    const confirmed = await p.http('POST', '/api/auth/verify-email', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ id, emailVerified: true });
  });

  it('sends a password reset link, and tells the owner once the password changed', async () => {
    await account('reset@example.org', 'Reset Me');
    const asked = await p.http('POST', '/api/auth/forgot-password', { body: { email: 'reset@example.org' } });
    expect(asked.status).toBe(200);
    const mail = await mailTo('reset@example.org', /Reset your password/);
    const token = decodeURIComponent(/reset-password\?token=([^\s]+)/.exec(mail.text ?? '')?.[1] ?? '');
    const reset = await p.http('POST', '/api/auth/reset-password', {
      body: { token, password: 'a new long passphrase' },
    });
    expect(reset.status).toBe(200);
    const changed = await mailTo('reset@example.org', /password was changed/);
    expect(changed.text).toContain('If it was not you');
  });

  it('retries sends the mail server refuses for a while, and records each once', async () => {
    // Two refusals for the address, taken by whichever of its two emails (welcome, verification) comes first.
    smtp.refuse('busy@example.org', 2);
    const id = await account('busy@example.org');
    const rows = async () =>
      (await p.database.db.execute(
        sql`select template, status, attempts from notify.deliveries where user_id = ${id} order by template`,
      )) as unknown as { template: string; status: string; attempts: number }[];
    await expect
      .poll(async () => (await rows()).filter((r) => r.status === 'sent').length, { timeout: 10_000 })
      .toBe(2);
    const done = await rows();
    expect(done.map((r) => r.template)).toEqual(['verify-email', 'welcome']);
    expect(done.reduce((n, r) => n + r.attempts, 0)).toBe(4);
    const received = smtp.received.filter((m) => JSON.stringify(m.to).includes('busy@example.org'));
    expect(received.map((m) => m.subject).sort()).toEqual(['Confirm your email address', 'Welcome to Rootline']);
  });
});

describe('unsubscribe links', () => {
  it('turns off that email type without signing in, and a forged token is refused', async () => {
    const id = await account('leave@example.org');
    const welcome = await mailTo('leave@example.org', /Welcome/);
    // The emailed link opens the web app's page, which sends the token to the API.
    const url = new URL(/https:\/\/rootline\.test\/unsubscribe\?token=\S+/.exec(welcome.text ?? '')?.[0] ?? '');
    const res = await p.http('GET', `/api/notifications/unsubscribe${url.search}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ type: 'welcome', channel: 'email', enabled: false });
    const prefs = await p.http('GET', '/api/notifications/preferences', { role: 'USER', sub: id });
    expect(prefs.body.data.welcome).toEqual({ email: false, push: false, 'in-app': true });

    const token = url.searchParams.get('token') ?? '';
    const forged = `${Buffer.from(JSON.stringify(['usr_someone_else', 'welcome'])).toString('base64url')}.${token.split('.')[1]}`;
    const refused = await p.http('GET', `/api/notifications/unsubscribe?token=${forged}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR' } });
    expect((await p.http('GET', '/api/notifications/unsubscribe?token=abc')).status).toBe(400);
  });

  it('accepts the one-click form POST that mail clients send', async () => {
    await account('oneclick@example.org');
    const welcome = await mailTo('oneclick@example.org', /Welcome/);
    const url = new URL(header(welcome, 'list-unsubscribe')?.replace(/[<>]/g, '') ?? '');
    const res = await p.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ type: 'welcome', channel: 'email', enabled: false });
  });
});

describe('notifications from domain events', () => {
  it('tells a plant’s owner in the app, and by email once they ask for it', async () => {
    const id = await account('plants@example.org', 'Pat Plant');
    await publish(plantRegistered, { plantId: 'plt_quiet', commonName: 'Basil', ownerId: id });
    const on = await p.http('PATCH', '/api/notifications/preferences', {
      role: 'USER',
      sub: id,
      body: { 'plant-registered': { email: true } },
    });
    expect(on.status).toBe(200);
    expect(on.body.data['plant-registered']).toEqual({ email: true, push: false, 'in-app': true });
    await publish(plantRegistered, { plantId: 'plt_loud', commonName: 'Thyme', ownerId: id });
    const mail = await mailTo('plants@example.org', /Thyme is registered/);
    expect(mail.text).toContain(`${PUBLIC_URL}/plants/plt_loud`);
    await expect
      .poll(async () =>
        (await notificationsOf(id, '?unread=true')).body.data?.map((n: { title: string }) => n.title).sort(),
      )
      .toEqual(['Basil is registered', 'Thyme is registered', 'Welcome to Rootline']);
    expect(smtp.received.some((m) => m.subject === 'Basil is registered')).toBe(false);
  });

  it('applies an event once even when it is published twice', async () => {
    const id = await account('twice@example.org');
    const eventId = newId('evt', Date.now());
    await publish(plantRegistered, { plantId: 'plt_twice', commonName: 'Sage', ownerId: id }, eventId);
    await publish(plantRegistered, { plantId: 'plt_twice', commonName: 'Sage', ownerId: id }, eventId);
    await publish(plantRegistered, { plantId: 'plt_after', commonName: 'Dill', ownerId: id });
    await expect.poll(async () => (await notificationsOf(id)).body.pagination?.total).toBe(3);
    const titles = (await notificationsOf(id)).body.data.map((n: { title: string }) => n.title);
    expect(titles.filter((t: string) => t === 'Sage is registered')).toHaveLength(1);
  });

  it('tells both sides of a demand match, and a seller of an offer', async () => {
    const grower = await account('grower@example.org');
    const household = await account('household@example.org');
    await publish(demandMatched, {
      matchId: 'mtc_1',
      supplyId: 'sup_1',
      growerId: grower,
      consumerId: household,
      crop: 'tomato',
      quantityKg: 3,
      distanceKm: 4.2,
    });
    await publish(offerMade, {
      offerId: 'ofr_1',
      listingId: 'lst_1',
      buyerId: household,
      sellerId: grower,
      quantity: 2,
      price: 350,
      currency: 'EUR',
    });
    await expect
      .poll(async () => (await notificationsOf(grower)).body.data?.map((n: { type: string }) => n.type).sort())
      .toEqual(['demand-match', 'marketplace', 'welcome']);
    const mine = (await notificationsOf(household)).body.data;
    expect(mine.find((n: { type: string }) => n.type === 'demand-match')).toMatchObject({
      title: 'tomato grown near you',
      body: 'A grower can supply 3 kg of tomato, 4.2 km away.',
      data: { matchId: 'mtc_1', supplyId: 'sup_1' },
    });
    const offerMail = await mailTo('grower@example.org', /New offer/);
    expect(offerMail.text).toContain('An offer for 2 at 3.50 EUR each.');
  });

  it('match notice to a grower gave the distance to 0.1 km: now only to the 5 km band, in the app and by email', async () => {
    const grower = await account('banded-grower@example.org');
    const household = await account('banded-household@example.org');
    await publish(demandMatched, {
      matchId: 'mtc_banded',
      supplyId: 'sup_banded',
      growerId: grower,
      consumerId: household,
      crop: 'kale',
      quantityKg: 2,
      distanceKm: 6.04,
    });
    const find = async () =>
      (await notificationsOf(grower)).body.data?.find((n: { type: string }) => n.type === 'demand-match');
    await expect.poll(find, { timeout: 10_000 }).toBeTruthy();
    const notice = await find();
    expect(notice).toMatchObject({ body: 'Your supply matches 2 kg of kale, within 10 km.' });
    expect(JSON.stringify(notice)).not.toContain('6.0');
    const mail = await mailTo('banded-grower@example.org', /household near you wants kale/);
    expect(mail.text).toContain('within 10 km');
    expect(`${mail.text}${mail.html}`).not.toMatch(/6\.0 km|6\.04/);
  });

  it('tells the party that did not accept an offer', async () => {
    const offer = {
      offerId: 'ofr_2',
      listingId: 'lst_2',
      buyerId: 'usr_buyer',
      sellerId: 'usr_seller',
      quantity: 1,
      price: 100,
      currency: 'EUR',
    };
    // The seller accepts the buyer's offer; later the buyer accepts a counter on another offer.
    await publish(offerAccepted, offer, newId('evt', Date.now()), { id: 'usr_seller', role: 'USER' });
    await publish(offerAccepted, { ...offer, offerId: 'ofr_3' }, newId('evt', Date.now()), {
      id: 'usr_buyer',
      role: 'USER',
    });
    const titles = async (sub: string) =>
      (await notificationsOf(sub)).body.data?.map((n: { data: { offerId: string } }) => n.data.offerId);
    await expect.poll(() => titles('usr_buyer')).toEqual(['ofr_2']);
    await expect.poll(() => titles('usr_seller')).toEqual(['ofr_3']);
  });
});
