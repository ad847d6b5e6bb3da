import i18next from 'i18next';
import { useNamespace } from '../../i18n';

/** The panel designer's strings: i18n/<locale>/reportsDesigner.json, loaded by the host's i18next backend. */
export const DESIGNER_NS = 'reportsDesigner';

export function useDsT() {
  return useNamespace(DESIGNER_NS);
}

/** Outside React. */
export function dsTr(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(`${DESIGNER_NS}:${key}`, options) as string;
}
