import { useHasButton, useShell } from '@atrium/sdk';

/** The reports menu's export button resource (plugins/reports/plugin.py). */
export const EXPORT_BUTTON = 'dyreport:export';

/** Whether the user holds the export button on the page's menu (super administrators and supervisors hold
 * every button). Shared links open outside the shell, without menus: there the panel's privileges decide alone. */
export function useExportGranted(): boolean {
  const shell = useShell();
  const granted = useHasButton(EXPORT_BUTTON, shell.currentMenu?.menuId);
  return !shell.manifest || granted;
}

/** Where the viewer may export at all: signed in, or through a shared link (its token proves the link's
 * client, as for its data calls; the link's privileges then decide). */
export function canExportHere(env: { signedIn: boolean; access?: { linkToken?: string } }): boolean {
  return env.signedIn || !!env.access?.linkToken;
}
