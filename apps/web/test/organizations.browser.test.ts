import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMenu,
  type BrowserRig,
  emailedLink,
  expectAccessible,
  mainMenu,
  RIG_START_MS,
  screenshot,
  signIn,
  startBrowserRig,
} from './support/browser.js';

// Organizations in the browser: Ada creates one, invites Grace by email, Grace accepts through the emailed link
// (signing in first and coming back to it), Ada makes her a manager, cannot leave as the last owner, and removes her.

const stamp = Date.now();
const ADA = { name: 'Ada Owner', email: `ada-org-${stamp}@example.org`, password: 'an owner of a seed library' };
const GRACE = { name: 'Grace Member', email: `grace-org-${stamp}@example.org`, password: 'a member for a while' };
const ORG = 'Riverside Seed Library';

async function register(rig: BrowserRig, person: { name: string; email: string; password: string }) {
  const res = await fetch(`${rig.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(person),
  });
  expect(res.status).toBe(201);
}

describe('organizations, in the browser', () => {
  let rig: BrowserRig;
  let ada: Page;
  let grace: Page;
  let membersUrl: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    await register(rig, ADA);
    await register(rig, GRACE);
    ada = await (await rig.context()).newPage();
    grace = await (await rig.context()).newPage();
  }, RIG_START_MS);
  afterAll(async () => {
    await rig?.stop();
  }, 120_000);

  it('creates an organization from the Organizations menu entry, with its creator as owner', async () => {
    await signIn(ada, ADA);
    await (await accountMenu(ada)).getByRole('menuitem', { name: 'Organizations' }).click();
    await ada.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    await expectAccessible(ada);
    await ada.getByRole('link', { name: 'Create an organization' }).click();
    await ada.getByRole('heading', { level: 1, name: 'Create an organization' }).waitFor();
    await expectAccessible(ada);
    await ada.getByLabel('Name').fill(ORG);
    await ada.getByLabel('Kind').selectOption('seed-library');
    await ada.getByLabel('Description').fill('Open-pollinated seeds, saved and shared.');
    await ada.getByLabel('City').fill('Utrecht');
    await ada.getByLabel('Country').fill('NL');
    await ada.getByLabel('Latitude').fill('52.0907');
    await ada.getByLabel('Longitude').fill('5.1214');
    await ada.getByLabel('Location shown').selectOption('city');
    await ada.getByRole('button', { name: 'Create organization' }).click();
    await ada.getByRole('heading', { level: 1, name: `Members of ${ORG}` }).waitFor();
    membersUrl = ada.url();
    const me = ada.getByRole('row', { name: new RegExp(ADA.name) });
    await expect.poll(() => me.getByLabel(`Role of ${ADA.name}`, { exact: true }).inputValue()).toBe('owner');
    await expectAccessible(ada);
  }, 120_000);

  it('invites Grace by email; she signs in from the emailed link, comes back to it and accepts', async () => {
    await ada.getByLabel('Email address').fill(GRACE.email);
    await ada.getByLabel('Role', { exact: true }).selectOption('member');
    await ada.getByRole('button', { name: 'Send invitation' }).click();
    await ada.getByText(`Invitation sent to ${GRACE.email.toLowerCase()}.`).waitFor();
    await ada.getByRole('list', { name: 'Pending invitations' }).getByText(GRACE.email.toLowerCase()).waitFor();

    const link = await emailedLink(rig.dataDir, GRACE.email.toLowerCase(), '/organizations/join');
    expect(new URL(link).pathname).toBe('/organizations/join');
    await grace.goto(link);
    await grace.getByRole('heading', { level: 1, name: 'Invitation' }).waitFor();
    await expectAccessible(grace);
    await grace.getByRole('link', { name: 'Sign in to answer' }).click();
    await grace.getByLabel('Email').fill(GRACE.email);
    await grace.getByLabel('Password').fill(GRACE.password);
    await grace.getByRole('button', { name: 'Sign in' }).click();
    await grace.getByText(`${ADA.name} invited you to join ${ORG} as member.`).waitFor();
    await expectAccessible(grace);
    await screenshot(grace, 'organization-invitation');
    await grace.getByRole('button', { name: 'Accept' }).click();
    await grace.getByText(`You joined ${ORG} as member.`).waitFor();

    // The link worked once.
    await grace.goto(link);
    await grace
      .getByRole('alert')
      .getByText('This invitation is used, revoked or expired.', { exact: false })
      .waitFor();
  }, 120_000);

  it('makes Grace a manager; the last owner cannot leave; removing Grace ends her access', async () => {
    await ada.goto(membersUrl);
    const row = ada.getByRole('row', { name: new RegExp(GRACE.name) });
    await row.waitFor();
    await ada.getByLabel(`Role of ${GRACE.name}`, { exact: true }).selectOption('manager');
    await ada.getByRole('button', { name: `Change the role of ${GRACE.name}` }).click();
    await ada.getByText(`${GRACE.name} is now manager.`).waitFor();
    await expectAccessible(ada);
    await screenshot(ada, 'organization-members');

    // Grace sees herself as a manager, with the invitations she may now send.
    await grace.goto(membersUrl);
    await grace.getByRole('heading', { level: 2, name: 'Invitations' }).waitFor();

    await ada.getByRole('button', { name: 'Leave this organization' }).click();
    await ada.getByRole('alert').getByText('An organization keeps at least one owner.', { exact: false }).waitFor();

    await ada.getByRole('button', { name: `Remove ${GRACE.name}` }).click();
    await expect.poll(() => ada.getByRole('row', { name: new RegExp(GRACE.name) }).count()).toBe(0);

    await grace.reload();
    await grace.getByRole('alert').waitFor();
    expect(await grace.getByRole('table', { name: 'Members' }).count()).toBe(0);
  }, 120_000);

  it('acts for the organization from the account menu: the plant registered is its own, by its name', async () => {
    await ada.goto('/');
    let menu = await accountMenu(ada);
    expect(await menu.getByRole('menuitemradio', { name: `You (${ADA.name})` }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await expectAccessible(ada);
    await menu.getByRole('menuitemradio', { name: ORG }).click();
    await ada
      .getByRole('banner')
      .getByRole('button', { name: new RegExp(`${ADA.name} · ${ORG}`) })
      .waitFor();

    await ada.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Register a plant' }).click();
    await ada.getByLabel('Common name').fill('Calendula');
    await ada.getByLabel('Latitude').fill('52.0907');
    await ada.getByLabel('Longitude').fill('5.1214');
    await ada.getByRole('button', { name: 'Register the plant' }).click();
    await ada.getByRole('heading', { level: 1, name: 'Calendula' }).waitFor({ timeout: 30_000 });
    await ada.getByRole('link', { name: `Owned by ${ORG}` }).waitFor();
    await expectAccessible(ada);
    await screenshot(ada, 'organization-owned-plant');

    // The choice is the tab's: another tab acts for Ada alone until she chooses there too.
    const other = await ada.context().newPage();
    await other.goto('/');
    menu = await accountMenu(other);
    expect(await menu.getByRole('menuitemradio', { name: `You (${ADA.name})` }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await other.close();
  }, 120_000);

  it('offers the same choice in the phone menu', async () => {
    const phone = await (await rig.context({ width: 390, height: 844 })).newPage();
    await signIn(phone, ADA);
    const nav = await mainMenu(phone);
    await nav.waitFor();
    const choice = phone.getByLabel('Acting as');
    await expect.poll(() => choice.locator('option').allTextContents()).toEqual([`You (${ADA.name})`, ORG]);
    await choice.selectOption({ label: ORG });
    await expectAccessible(phone);
    await screenshot(phone, 'organization-acting-as-phone');
  }, 120_000);

  it('shows the public profile to a visitor, at the location’s privacy level', async () => {
    const id = new URL(membersUrl).pathname.split('/')[2] as string;
    const visitor = await (await rig.context()).newPage();
    await visitor.goto(`/organizations/${id}`);
    await visitor.getByRole('heading', { level: 1, name: ORG }).waitFor();
    await visitor.getByText('Utrecht, NL').waitFor();
    expect(await visitor.getByRole('link', { name: 'Members and invitations' }).count()).toBe(0);
    await expectAccessible(visitor);
    await visitor.goto('/organizations');
    await visitor.getByLabel('Search organizations').fill('riverside');
    await visitor.getByRole('button', { name: 'Search' }).click();
    await visitor.getByRole('link', { name: ORG }).waitFor();
  }, 120_000);

  it('speaks German to a browser that asks for German: the list, the profile and its kind', async () => {
    const visitor = await (await rig.context(undefined, { locale: 'de-DE' })).newPage();
    await visitor.goto('/organizations');
    await visitor.getByRole('heading', { level: 1, name: 'Organisationen' }).waitFor();
    await visitor.getByLabel('Organisationen durchsuchen').fill('riverside');
    await visitor.getByLabel('Art').selectOption({ label: 'Saatgutbibliothek' });
    await visitor.getByRole('button', { name: 'Suchen' }).click();
    await visitor.getByRole('status').getByText('1 Organisation', { exact: true }).waitFor();
    await visitor.getByRole('link', { name: ORG }).click();
    await visitor.getByRole('heading', { level: 1, name: ORG }).waitFor();
    await visitor.getByText('Saatgutbibliothek · 1 Mitglied').waitFor();
    await visitor.getByRole('term').getByText('Wo', { exact: true }).waitFor();
    await expectAccessible(visitor);
    await screenshot(visitor, 'organization-profile-de');
  }, 120_000);
});
