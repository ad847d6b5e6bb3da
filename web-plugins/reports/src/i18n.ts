import i18next from 'i18next';
import { useTranslation } from 'react-i18next';

/** The plugin's web translations: i18n/<locale>/reportsWeb.json, loaded by the host's i18next backend. */
export const NS = 'reportsWeb';

export function useRT() {
  const { t, ready, i18n } = useTranslation(NS);
  return { t, ready, locale: i18n.language };
}

/** Outside React (messages from handlers). */
export function tr(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(`${NS}:${key}`, options) as string;
}
