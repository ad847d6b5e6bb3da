import i18next from 'i18next';
import { useTranslation } from 'react-i18next';

/** The panel designer's strings: i18n/<locale>/reportsDesigner.json, loaded by the host's i18next backend. */
export const DESIGNER_NS = 'reportsDesigner';

export function useDsT() {
  const { t, ready, i18n } = useTranslation(DESIGNER_NS);
  return { t, ready, locale: i18n.language };
}

/** Outside React. */
export function dsTr(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(`${DESIGNER_NS}:${key}`, options) as string;
}
