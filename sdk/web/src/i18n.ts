import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { getCookie } from './storage';

export const LOCALES = ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-cn';
export const LANGUAGE_COOKIE = 'language';

/** Each language named in itself, as a language picker or a column of translations shows it. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  'zh-cn': '简体中文',
  'zh-tw': '繁體中文',
  'en-us': 'English',
  'vi-vn': 'Tiếng Việt',
  'hu-hu': 'Magyar',
};

export function normalizeLocale(value: string | undefined | null): Locale {
  const v = (value || '').toLowerCase().replace('_', '-').replace('#', '-');
  return (LOCALES as readonly string[]).includes(v) ? (v as Locale) : DEFAULT_LOCALE;
}

/** The current interface language: i18next's, else the language cookie, else zh-cn. */
export function currentLocale(): Locale {
  const lang = i18next?.language || getCookie(LANGUAGE_COOKIE);
  return normalizeLocale(lang);
}

/** The `language` request header: the locale with '-' replaced by '#' (zh-cn becomes zh#cn). */
export function languageHeader(locale: string = currentLocale()): string {
  return locale.replace(/-/g, '#');
}

/** Translates outside React; falls back to `defaultValue` when no bundle is loaded yet. */
export function translate(key: string, defaultValue: string, options: Record<string, unknown> = {}): string {
  try {
    if (i18next?.isInitialized) {
      const value = i18next.t(key, { defaultValue, ...options });
      if (typeof value === 'string' && value) return value;
    }
  } catch {
    /* not initialised */
  }
  let text = defaultValue;
  for (const [k, v] of Object.entries(options)) text = text.replace(`{{${k}}}`, String(v));
  return text;
}

/** `t` for a namespace (the shell's is `shell`); a plugin passes its own namespace.
 *
 * Until the namespace's bundle has arrived `t` answers an empty text (or the default value given),
 * never the key itself: the component renders again as soon as the bundle is loaded. */
export function useT(ns: string | string[] = 'shell') {
  const { t, i18n, ready } = useTranslation(ns);
  const locale = normalizeLocale(i18n.language);
  if (ready) return Object.assign(t, { i18n, locale, ready });
  const pending = ((_key: unknown, options?: unknown) => {
    const fallback =
      typeof options === 'string' ? options : (options as { defaultValue?: unknown } | undefined)?.defaultValue;
    return typeof fallback === 'string' ? fallback : '';
  }) as unknown as typeof t;
  return Object.assign(pending, { i18n, locale, ready });
}

/** Keys asked for but found in no bundle, kept when the page runs with `window.__atriumStrictI18n`
 * set (the browser tests set it): a test fails on any text drawn from a missing key. A key asked for with
 * a default of its own (a plugin's name where the shell has no word for it) draws that default, not the key. */
export function recordMissingKey(languages: readonly string[], namespace: string, key: string, fallback?: unknown): void {
  const w = window as unknown as { __atriumStrictI18n?: boolean; __atriumMissingKeys?: string[] };
  if (!w.__atriumStrictI18n) return;
  if (typeof fallback === 'string' && fallback !== '' && fallback !== key) return;
  const entry = `${namespace}:${key} (${languages.join(',')})`;
  (w.__atriumMissingKeys ||= []).push(entry);
  console.warn(`atrium:missing-key ${entry}`);
}

/** Adds a plugin's bundle to the host's i18next instance. */
export function addBundle(locale: string, ns: string, resources: Record<string, unknown>): void {
  i18next.addResourceBundle(locale, ns, resources, true, true);
}

/** Picks the text for the current locale from a plain string or a JSON map of locale to text
 * (menuEnName and systemEnName may be either). Chinese locales use `zhName`, others `enName`. */
export function localeText(
  zhName: string | undefined | null,
  enName: string | Record<string, string> | undefined | null,
  locale: string = currentLocale(),
): string {
  let map: Record<string, string> | undefined;
  if (enName && typeof enName === 'object') map = enName;
  else if (typeof enName === 'string' && enName.trim().startsWith('{')) {
    try {
      const parsed = JSON.parse(enName);
      if (parsed && typeof parsed === 'object') map = parsed as Record<string, string>;
    } catch {
      /* not JSON: plain text */
    }
  }
  const zh = typeof zhName === 'string' ? zhName : '';
  if (map) {
    const hit = map[locale] || map[locale.replace('-', '_')] || map[locale.split('-')[0]];
    if (hit) return hit;
    if (locale.startsWith('zh')) return zh || map['zh-cn'] || map['en-us'] || '';
    return map['en-us'] || zh || '';
  }
  const en = typeof enName === 'string' ? enName : '';
  if (locale.startsWith('zh')) return zh || en;
  return en || zh;
}
