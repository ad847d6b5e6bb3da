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
