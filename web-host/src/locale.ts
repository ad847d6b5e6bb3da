import { useSyncExternalStore } from 'react';
import i18next from 'i18next';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { normalizeLocale, type Locale } from '@atrium/sdk';

/** antd's locale bundles, loaded on demand so only the active language is downloaded. */
const LOADERS: Record<Locale, () => Promise<{ default: AntdLocale }>> = {
  'zh-cn': () => import(/* webpackChunkName: "antd-zh-cn" */ 'antd/es/locale/zh_CN'),
  'zh-tw': () => import(/* webpackChunkName: "antd-zh-tw" */ 'antd/es/locale/zh_TW'),
  'en-us': () => import(/* webpackChunkName: "antd-en-us" */ 'antd/es/locale/en_US'),
  'vi-vn': () => import(/* webpackChunkName: "antd-vi-vn" */ 'antd/es/locale/vi_VN'),
  'hu-hu': () => import(/* webpackChunkName: "antd-hu-hu" */ 'antd/es/locale/hu_HU'),
};

let current: AntdLocale | undefined;
const listeners = new Set<() => void>();

export async function loadAntdLocale(locale: Locale = normalizeLocale(i18next.language)): Promise<void> {
  try {
    current = (await LOADERS[locale]()).default;
  } catch {
    current = undefined;
  }
  for (const l of Array.from(listeners)) l();
}

export function useAntdLocale(): AntdLocale | undefined {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
