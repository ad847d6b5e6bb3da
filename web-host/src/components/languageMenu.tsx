import type { Locale } from '@atrium/sdk';
import { changeLanguage } from '../i18n';
import type { LanguageOption } from '../languages';
import { loadAntdLocale } from '../locale';

/** Switches the interface language and antd's bundle with it. */
export async function switchLanguage(locale: Locale): Promise<void> {
  await changeLanguage(locale);
  await loadAntdLocale(locale);
}

/** The switchers' menu items: each language named as the dictionary names it. */
export function languageMenuItems(options: readonly LanguageOption[]) {
  return options.map((o) => ({ key: o.locale, label: <span data-testid={`lang-${o.locale}`}>{o.label}</span> }));
}
