import i18next from 'i18next';
import { useNamespace } from '../../i18n';

/** The designer's data screens and view editor: i18n/<locale>/reportsData.json, loaded by the host's i18next backend. */
export const DATA_NS = 'reportsData';

export function useDT() {
  return useNamespace(DATA_NS);
}

/** Outside React. */
export function dtr(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(`${DATA_NS}:${key}`, options) as string;
}
