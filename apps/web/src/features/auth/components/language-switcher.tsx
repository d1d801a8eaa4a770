import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NAV } from '../../../app/strings';
import { currentLanguage, rememberLanguage, switchLanguage } from '../../../i18n';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../../i18n/languages';
import { SESSION, type User, useSession, useUpdateAccount } from '../api/session';

/**
 * The language the app is shown in, as a labelled select. Signed in, the choice is saved on the account (and so
 * follows it to other browsers and into its emails); signed out, it is kept in this browser.
 */
export function LanguageSwitcher({ id, label }: { id: string; label?: string }) {
  useTranslation();
  const client = useQueryClient();
  const user = useSession().data ?? null;
  const update = useUpdateAccount();
  // The account's saved language wins over the browser's once the session is known (the first paint used the
  // browser's); it is remembered here too, so the next first paint is already in it.
  const saved = user?.locale;
  useEffect(() => {
    if (isLanguage(saved) && saved !== currentLanguage()) {
      rememberLanguage(saved);
      void switchLanguage(saved);
    }
  }, [saved]);
  return (
    <p className="language-switcher">
      <label htmlFor={id}>{label ?? NAV.language}</label>{' '}
      <select
        id={id}
        value={currentLanguage()}
        onChange={(e) => {
          const lng = e.target.value;
          if (!isLanguage(lng)) return;
          rememberLanguage(lng);
          if (user) {
            // The session is told first, so the account's language does not switch the page back meanwhile.
            client.setQueryData<User>(SESSION, { ...user, locale: lng });
            update.mutate({ locale: lng });
          }
          void switchLanguage(lng);
        }}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
    </p>
  );
}
