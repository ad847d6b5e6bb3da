import i18next from 'i18next';
import { useTranslation } from 'react-i18next';

/** The plugin's web translations: i18n/<locale>/reportsWeb.json, loaded by the host's i18next backend. */
export const NS = 'reportsWeb';

/** `t` of a namespace that answers an empty text (or the default value given) until the namespace's bundle
 * has arrived, never the key: the component renders again when it is loaded (react-i18next's own `t`
 * looks the key up, and misses, before that). */
export function useNamespace(ns: string) {
  const { t, ready, i18n } = useTranslation(ns);
  return { t: ready ? t : (pendingT as unknown as typeof t), ready, locale: i18n.language };
}

function pendingT(_key: unknown, options?: unknown): string {
  const fallback = typeof options === 'string' ? options : (options as { defaultValue?: unknown } | undefined)?.defaultValue;
  return typeof fallback === 'string' ? fallback : '';
}

export function useRT() {
  return useNamespace(NS);
}

/** Outside React (messages from handlers). */
export function tr(key: string, options: Record<string, unknown> = {}): string {
  return i18next.t(`${NS}:${key}`, options) as string;
}
