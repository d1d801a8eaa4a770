import { REFUSAL_REASONS } from '@rootline/contracts/refusal-reasons';
import { RootlineError } from '@rootline/sdk';
import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { errorFor, errorMessage, fieldErrors, fieldLabel, plainMessage, refusalReason } from './errors';

const invalid = (message: string, details?: unknown) => new RootlineError(400, 'VALIDATION_ERROR', message, details);

describe('field errors in words', () => {
  it('binds a schema failure to its input by name, in plain words', () => {
    const error = invalid('body/location/latitude must be <= 90', [
      { field: 'body/location/latitude', message: 'must be <= 90' },
    ]);
    expect(errorFor(error, 'latitude')).toBe('Enter 90 or less.');
    expect(errorFor(error, 'longitude')).toBeUndefined();
  });

  it('never shows a request path or an id', () => {
    const error = invalid('body/token is invalid, used or expired', [
      { field: 'body/token', message: 'is invalid, used or expired' },
    ]);
    expect(errorFor(error, 'token')).toBe('This link is no longer valid: ask for a new one.');
    expect(errorMessage(error)).not.toMatch(/body\//);
    const owner = invalid('owner.name: is not the name of account usr_01HZX3K6Q2W8N4B7T5R9V0C1ME: leave it out', {
      field: 'owner.name',
      reason: 'not-account-name',
    });
    expect(errorFor(owner, 'owner.name')).toBe('This is not the account’s name: leave it empty to use it.');
    expect(errorMessage(owner)).not.toMatch(/usr_|owner\.name/);
  });

  it('reads the field from a message that names it when the answer has no details', () => {
    const error = invalid('url: 127.0.0.1 is a private, loopback or link-local address');
    expect(errorFor(error, 'url')).toBe(
      'This address is on a private network: give a public web address Rootline can reach.',
    );
    expect(errorMessage(error)).not.toContain('127.0.0.1 is');
  });

  it('matches dotted and slashed paths alike, and a nested name by its end', () => {
    const error = invalid('x', [
      { field: 'readings.0.at', message: 'not a valid time' },
      { field: 'querystring/kind', message: 'must be equal to one of the allowed values', allowed: ['a', 'b'] },
    ]);
    expect(errorFor(error, 'at')).toBe('Enter a valid date and time.');
    expect(errorFor(error, 'kind')).toBe('Choose one of: a, b.');
    expect(fieldErrors(error).map((f) => f.path)).toEqual(['readings.0.at', 'kind']);
  });

  it.each([
    ['is required', 'Fill this in.'],
    ['must NOT have fewer than 1 characters', 'Fill this in.'],
    ['must NOT have fewer than 16 characters', 'Use at least 16 characters.'],
    ['must NOT have more than 100 characters', 'Use at most 100 characters.'],
    ['must NOT have fewer than 1 items', 'Choose at least one.'],
    ['must be >= 1', 'Enter 1 or more.'],
    ['must be > 0', 'Enter more than 0.'],
    ['must be integer', 'Enter a whole number.'],
    ['must match format "email"', 'Enter an email address, like name@example.org.'],
    ['must match format "uri"', 'Enter a full web address, starting with https://.'],
    ['must match pattern "^[a-z]+$"', 'This is not in the expected form.'],
    ['must match pattern "^https?://[^\\s]+$"', 'Enter a web address starting with https:// (or http://).'],
    ['is not an accepted property', 'This cannot be given here.'],
    ['must be in the future', 'Choose a time in the future.'],
    ['recordedAt: must not be in the future', 'Choose a time that is not in the future.'],
    ['must be at most 3', 'Enter 3 or less.'],
    ['not a Monday', 'The service said: “Not a Monday.”'],
  ])('%s → %s', (raw, plain) => {
    expect(plainMessage(raw)).toBe(plain);
  });

  it('names a field as a person would', () => {
    expect(fieldLabel('body/commonName')).toBe('Common name');
    expect(fieldLabel('readings.0.at')).toBe('Time');
    expect(fieldLabel('url')).toBe('Web address');
  });

  it('sums up a refusal without paths, and leaves other errors as they are', () => {
    const error = invalid('body/title must NOT have fewer than 1 characters', [
      { field: 'body/title', message: 'must NOT have fewer than 1 characters' },
    ]);
    expect(errorMessage(error)).toBe('Please check this field. Title: Fill this in.');
    expect(errorMessage(new RootlineError(404, 'NOT_FOUND', 'Listing not found'))).toBe(
      'This could not be found: it may have been removed. The service said: “Listing not found.”',
    );
    expect(fieldErrors(new Error('x'))).toEqual([]);
  });

  it('says which id or date form a pattern wants, without the pattern', () => {
    expect(plainMessage('must match pattern "^plt_[A-Za-z0-9]{10,40}$"')).toBe(
      'Enter an id starting with plt_, as its page shows it.',
    );
    expect(plainMessage('must match pattern "^\\d{4}(-\\d{2}(-\\d{2})?)?$"')).toBe(
      'Enter a date as YYYY, YYYY-MM or YYYY-MM-DD.',
    );
    expect(plainMessage('must match pattern "^[A-Za-z0-9_.:-]+$"')).toBe('This is not in the expected form.');
  });
});

describe('field errors in the reader’s language', () => {
  afterAll(async () => {
    await i18next.changeLanguage('en');
  });

  it('rewords a refusal in German and French, numbers and plurals included', async () => {
    for (const lng of ['de', 'fr']) {
      const { default: catalog } = await import(`../locales/${lng}/common.json`);
      i18next.addResourceBundle(lng, 'common', catalog, true, true);
    }
    const error = invalid('two fields', [
      { field: 'body/location/latitude', message: 'must be <= 90' },
      { field: 'body/comment', message: 'must NOT have more than 1000 characters' },
    ]);
    await i18next.changeLanguage('de');
    expect(errorFor(error, 'latitude')).toBe('Gib 90 oder weniger ein.');
    expect(errorMessage(error)).toBe(
      'Bitte prüfe diese Felder. Breitengrad: Gib 90 oder weniger ein. Kommentar: Verwende höchstens 1.000 Zeichen.',
    );
    await i18next.changeLanguage('fr');
    expect(errorFor(error, 'comment')).toBe('Utilisez au plus 1\u202f000 caractères.');
    expect(plainMessage('is required')).toBe('Remplissez ce champ.');
  });
});

describe('refusals in the reader’s language', () => {
  const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'] as const;
  const catalogs: Record<string, { refusals: { reasons: Record<string, string>; codes: Record<string, string> } }> = {};

  afterAll(async () => {
    await i18next.changeLanguage('en');
  });

  it('word every reason the services can give, in all five languages', async () => {
    for (const lng of LANGUAGES) catalogs[lng] = (await import(`../locales/${lng}/common.json`)).default;
    const missing = LANGUAGES.flatMap((lng) =>
      REFUSAL_REASONS.filter((r) => !catalogs[lng]?.refusals.reasons[r]?.trim()).map((r) => `${lng}: ${r}`),
    );
    expect(missing).toEqual([]);
    // No wording is left over for a reason the services no longer give.
    expect(Object.keys(catalogs.en?.refusals.reasons ?? {}).sort()).toEqual([...REFUSAL_REASONS].sort());
  });

  it('word every error code, in all five languages', async () => {
    const { ERROR_CODES } = await import('@rootline/contracts/errors');
    for (const lng of LANGUAGES) {
      const catalog = (await import(`../locales/${lng}/common.json`)).default;
      for (const code of [...ERROR_CODES, 'other']) expect(catalog.refusals.codes[code], `${lng} ${code}`).toBeTruthy();
    }
  });

  it('say a refusal by its reason, else by its code with the API’s words as a detail', async () => {
    const de = (await import('../locales/de/common.json')).default;
    i18next.addResourceBundle('de', 'common', de, true, true);
    await i18next.changeLanguage('de');
    const own = new RootlineError(403, 'FORBIDDEN', 'A seller cannot make an offer on their own listing', {
      reason: 'own-listing',
    });
    expect(refusalReason(own)).toBe('own-listing');
    const custody = new RootlineError(403, 'FORBIDDEN', 'plantId: the handler is not a custodian', {
      field: 'plantId',
      reason: 'not-custodian',
    });
    expect(errorMessage(custody)).toBe(
      'Du hast diese Pflanze oder Saatgutpartie nicht in Obhut: Ihr Eigentümer oder wer eine Übergabe angenommen hat, erfasst ihre Schritte.',
    );
    expect(errorMessage(own)).toBe('Du kannst kein Angebot auf dein eigenes Inserat machen.');
    const quantity = invalid('body/quantity is more than the 3 available', [
      { field: 'body/quantity', message: 'must be at most 3', reason: 'quantity-over-available' },
    ]);
    expect(errorFor(quantity, 'quantity')).toBe('Frag nicht mehr an, als das Inserat verfügbar hat.');
    const unknown = new RootlineError(409, 'CONFLICT', 'Something new', { reason: 'a-reason-of-a-later-version' });
    expect(errorMessage(unknown)).toBe(
      'Das geht im jetzigen Stand nicht: Lade neu, um den Stand zu sehen. Der Dienst meldete: „Something new.“',
    );
    expect(errorMessage(new RootlineError(503, 'UNAVAILABLE', 'plants.plant.get did not answer within 5000 ms'))).toBe(
      'Rootline kann das gerade nicht: Versuche es gleich noch einmal.',
    );
    expect(errorMessage(new RootlineError(502, 'HTTP_ERROR', 'HTTP 502'))).toBe(
      'Rootline hat das abgelehnt. Der Dienst meldete: „HTTP 502.“',
    );
  });
});
