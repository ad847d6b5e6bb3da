import i18next from 'i18next';
import { useTranslation } from 'react-i18next';

/** The designer's data screens and view editor: i18n/<locale>/reportsData.json, loaded by the host's i18next backend. */
export const DATA_NS = 'reportsData';

export function useDT() {
  const { t, ready, i18n } = useTranslation(DATA_NS);
  return { t, ready, locale: i18n.language };
}

/** Outside React. */
export function dtr(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(`${DATA_NS}:${key}`, options) as string;
}
