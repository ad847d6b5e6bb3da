/** The SDK version a plugin module is stamped with by `definePlugin`. The host accepts a plugin whose
 * SDK major version equals its own and whose minor version is not newer. */
export const SDK_VERSION = '1.0.0';

export function isCompatibleSdk(pluginVersion: string | undefined, hostVersion: string = SDK_VERSION): boolean {
  if (!pluginVersion) return false;
  const [pm, pn] = pluginVersion.split('.').map((x) => parseInt(x, 10));
  const [hm, hn] = hostVersion.split('.').map((x) => parseInt(x, 10));
  if (Number.isNaN(pm) || Number.isNaN(hm)) return false;
  return pm === hm && (pn || 0) <= (hn || 0);
}
