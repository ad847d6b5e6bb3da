import { useEffect, useState } from 'react';
import { LANGUAGE_NAMES, LOCALES, request, type Locale } from '@atrium/sdk';

/** A language the switchers offer (spec 3, language option: dicCode, dicName). */
export interface LanguageOption {
  locale: Locale;
  label: string;
}

export interface LanguageItem {
  dicCode?: unknown;
  dicName?: unknown;
}

export const LANGUAGE_DICTIONARY = 'SYSTEM_LANGUAGE_TYPES';

/** The five interface languages the host has translations for, each named in itself. */
export const BUILT_IN_LANGUAGES: readonly LanguageOption[] = LOCALES.map((locale) => ({ locale, label: LANGUAGE_NAMES[locale] }));

/** A dictionary code as a host locale ('zh_CN', 'zh#cn' and 'ZH-CN' are zh-cn); undefined for a language
 * the host has no translations for. */
export function hostLocale(code: unknown): Locale | undefined {
  if (typeof code !== 'string') return undefined;
  const value = code.trim().toLowerCase().replace(/[_#]/g, '-');
  return (LOCALES as readonly string[]).includes(value) ? (value as Locale) : undefined;
}

/** The dictionary's languages in its order, without those the host cannot show and without repeats; the
 * built-in list when none is left. */
export function languageOptions(items: unknown): LanguageOption[] {
  const seen = new Set<Locale>();
  const options: LanguageOption[] = [];
  for (const item of Array.isArray(items) ? (items as LanguageItem[]) : []) {
    const locale = hostLocale(item?.dicCode);
    if (!locale || seen.has(locale)) continue;
    seen.add(locale);
    const name = typeof item.dicName === 'string' ? item.dicName.trim() : '';
    options.push({ locale, label: name || LANGUAGE_NAMES[locale] });
  }
  return options.length ? options : [...BUILT_IN_LANGUAGES];
}

let pending: Promise<LanguageOption[]> | undefined;

/** The languages to offer, asked once per page load (the dictionary is public: the sign-in page uses it). */
export function loadLanguageOptions(): Promise<LanguageOption[]> {
  pending ??= request<unknown>('base/dic-items/get-dictype-notoken', { params: { dicType: LANGUAGE_DICTIONARY }, silent: true })
    .then(languageOptions)
    .catch(() => [...BUILT_IN_LANGUAGES]);
  return pending;
}

/** The languages to offer: the built-in ones until the dictionary answers. */
export function useLanguageOptions(): LanguageOption[] {
  const [options, setOptions] = useState<LanguageOption[]>(() => [...BUILT_IN_LANGUAGES]);
  useEffect(() => {
    let live = true;
    void loadLanguageOptions().then((list) => live && setOptions(list));
    return () => {
      live = false;
    };
  }, []);
  return options;
}
