/** Exports of view data (spec 4, 7.2) through the dataexport service's asynchronous tasks (the SDK's flow); on
 * a shared link, through the link's own export routes, proven by the link's token. */
import { downloadHref, hasButton, permissions, request, type ButtonResource, type ExportRequester } from '@atrium/sdk';
import { downloadLinkExport, exportTaskBody, linkExportRequester, runViewExport, type Access, type DataBody } from '../api';
import { flatTable, leafColumns } from '../charts/tables';
import type { ChartView } from '../model/types';
import { EXPORT_BUTTON } from './exportGrant';

export interface ExportItem {
  view: ChartView;
  body: Partial<DataBody>;
  panelId: string;
  /** A shared link's token (and proxy): the export runs as the link's client. */
  access?: Access;
}

/** What the flow calls (tests hand in their own). */
export interface ExportDeps {
  request?: ExportRequester;
  sleep?: (ms: number) => Promise<void>;
  /** Starts a signed-in export's download from its address. */
  download?: (href: string, fileName: string) => void;
  /** Saves a link export's file. */
  save?: (blob: Blob, fileName: string) => void;
}

/** The button resources of each menu, as `base/resource/find-resource` answers them (the SDK keeps only their
 * codes), asked once per menu. */
const resources = new Map<string, Promise<ButtonResource[]>>();

/** Forgets the menus' button resources (tests, a new session). */
export function clearResourceIds(): void {
  resources.clear();
}

/**
 * Spec 6: the resource id of the button `code` on the page's menu (the SDK's active menu), for the export's
 * `resourceId`; undefined when the user does not hold the button there or no menu is active (a shared link).
 * The SDK says whether the button is held (`hasButton`); its id comes from the menu's resource list.
 */
export async function resourceIdFor(code: string, menuId: string | number | undefined = permissions.activeMenu, call: ExportRequester = (p, o) => request(p, o)): Promise<string | undefined> {
  if (menuId === undefined || menuId === '' || !hasButton(code, menuId)) return undefined;
  const key = String(menuId);
  let list = resources.get(key);
  if (!list) {
    list = call<ButtonResource[]>('base/resource/find-resource', { method: 'GET', params: { menuId }, silent: true })
      .then((found) => (Array.isArray(found) ? found : []))
      .catch(() => {
        resources.delete(key);
        return [];
      });
    resources.set(key, list);
  }
  const hit = (await list).find((b) => b && b.resourceCode === code);
  return hit && hit.resourceId !== undefined && hit.resourceId !== null && hit.resourceId !== '' ? String(hit.resourceId) : undefined;
}

/** Exports the views one after the other; rejects with the server's message on a failure. */
export async function exportViews(items: ExportItem[], progress?: (key: string, opts?: Record<string, unknown>) => void, deps: ExportDeps = {}): Promise<void> {
  for (const it of items) {
    const columns = leafColumns(flatTable(it.view.data).columns).map((c) => ({ key: c.key, title: c.title }));
    const { goPage: _page, ...requestList } = it.body;
    const link = it.access?.linkToken ? it.access : undefined;
    const resourceId = link ? undefined : await resourceIdFor(EXPORT_BUTTON, undefined, deps.request);
    const body = exportTaskBody(it.view, it.panelId, columns, requestList, resourceId);
    progress?.('export.running', { name: it.view.title || it.view.name });
    if (link) {
      let href = '';
      let fileName = '';
      await runViewExport(body, (h, n) => {
        href = h;
        fileName = n;
      }, { request: linkExportRequester(link, deps.request), sleep: deps.sleep });
      if (!href) throw new Error(fileName || 'export');
      await downloadLinkExport(href, fileName, link, deps.save, deps.request);
    } else {
      await runViewExport(body, deps.download ?? downloadHref, { request: deps.request, sleep: deps.sleep });
    }
  }
}
