/**
 * The page's own configuration: `window.ATRIUM_CONFIG`, set by the page that serves or embeds the shell
 * before the shell's scripts run. Every key is optional.
 *
 * - `SHOW_REQUIREMENT_QR` (or the older `requirementsQr`): shows the requirements QR code in the side
 *   toolbar, whatever the server's flag of the same name says.
 * - `requirementsQrUrl`: the address the requirements QR code holds.
 * - `fullscreen`: the shell opens every page full screen (as does `window.ATRIUM_FULLSCREEN`).
 * - `embedOrigins`: origins (a list, or one comma-separated text) besides the shell's own that may push
 *   routes into the tab strip (see `layout/embedRoutes.ts`).
 */
export interface PageConfig {
  SHOW_REQUIREMENT_QR?: unknown;
  requirementsQr?: unknown;
  requirementsQrUrl?: unknown;
  fullscreen?: unknown;
  embedOrigins?: unknown;
}

export function pageConfig(): PageConfig {
  const value = typeof window !== 'undefined' ? (window as { ATRIUM_CONFIG?: unknown }).ATRIUM_CONFIG : undefined;
  return value && typeof value === 'object' ? (value as PageConfig) : {};
}

/** A configured switch as a boolean: true, 'true', 1 and '1' are on; undefined when it is not set. */
export function switchValue(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return value === true || value === 1 || ['true', '1'].includes(String(value).trim().toLowerCase());
}

/** The page's requirements-QR switch: the server flag's name first, then the older key. */
export function requirementsQrSwitch(config: PageConfig = pageConfig()): boolean | undefined {
  return switchValue(config.SHOW_REQUIREMENT_QR) ?? switchValue(config.requirementsQr);
}

/** Whether the page asks for every page full screen. */
export function fullscreenSwitch(config: PageConfig = pageConfig()): boolean {
  const legacy = typeof window !== 'undefined' && !!(window as { ATRIUM_FULLSCREEN?: unknown }).ATRIUM_FULLSCREEN;
  return legacy || switchValue(config.fullscreen) === true;
}

/** The address in the requirements QR code: the configured one, else the portal's. */
export function requirementsQrUrl(origin: string, config: PageConfig = pageConfig()): string {
  const configured = typeof config.requirementsQrUrl === 'string' ? config.requirementsQrUrl.trim() : '';
  return configured || `${origin}/portal?from=requirements`;
}

/** The origins configured to push routes, as written (checked by `embedRoutes`). */
export function configuredEmbedOrigins(config: PageConfig = pageConfig()): string[] {
  const value = config.embedOrigins;
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter(Boolean);
}
