import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { earlyFetch } from './early';
import {
  DEFAULT_LOCALE, LANGUAGE_COOKIE, LOCALES, bus, getCookie, normalizeLocale, recordMissingKey, setCookie, type Locale,
} from '@atrium/sdk';

/** Loads `/i18n/{locale}/{ns}.json` from the kernel. */
const httpBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    earlyFetch(`/i18n/${language}/${namespace}.json`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${r.status}`))))
      .then((data) => callback(null, data))
      .catch(() => callback(null, {}));
  },
};

export { LANGUAGE_NAMES } from '@atrium/sdk';

export function initialLocale(): Locale {
  const query = new URLSearchParams(window.location.search).get('lang');
  return normalizeLocale(query || getCookie(LANGUAGE_COOKIE) || DEFAULT_LOCALE);
}

export async function initI18n(): Promise<void> {
  await i18next
    .use(httpBackend)
    .use(initReactI18next)
    .init({
      lng: initialLocale(),
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      lowerCaseLng: true,
      load: 'currentOnly',
      ns: ['shell'],
      defaultNS: 'shell',
      interpolation: { escapeValue: false },
      returnNull: false,
      saveMissing: true,
      missingKeyHandler: recordMissingKey,
      react: { useSuspense: false },
    } as any);
  document.documentElement.lang = i18next.language;
}

/** Switches the interface language; remembered in a cookie for 30 days. */
export async function changeLanguage(locale: Locale): Promise<void> {
  setCookie(LANGUAGE_COOKIE, locale, 30);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  bus.emit('language:changed', locale);
}
