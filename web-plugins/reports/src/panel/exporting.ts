/** Exports of view data (spec 4, 7.2) through the dataexport service's asynchronous tasks (the SDK's flow). */
import { downloadHref } from '@atrium/sdk';
import { exportTaskBody, runViewExport, type DataBody } from '../api';
import { flatTable, leafColumns } from '../charts/tables';
import type { ChartView } from '../model/types';

export interface ExportItem {
  view: ChartView;
  body: Partial<DataBody>;
  panelId: string;
}

function resourceIdFor(code: string): string | undefined {
  // spec 6: the button authority list kept in session storage, looked up by resource code
  try {
    const list = JSON.parse(sessionStorage.getItem('buttonAuthority') || sessionStorage.getItem('btnAuthList') || '[]');
    if (Array.isArray(list)) {
      const hit = list.find((b: { resourceCode?: string; code?: string }) => b?.resourceCode === code || b?.code === code);
      return hit ? String(hit.resourceId ?? hit.id ?? '') || undefined : undefined;
    }
  } catch {
    /* no list */
  }
  return undefined;
}

/** Exports the views one after the other; rejects with the server's message on a failure. */
export async function exportViews(items: ExportItem[], progress?: (key: string, opts?: Record<string, unknown>) => void): Promise<void> {
  for (const it of items) {
    const columns = leafColumns(flatTable(it.view.data).columns).map((c) => ({ key: c.key, title: c.title }));
    const { goPage: _page, ...requestList } = it.body;
    const body = exportTaskBody(it.view, it.panelId, columns, requestList, resourceIdFor('dyreport:export'));
    progress?.('export.running', { name: it.view.title || it.view.name });
    await runViewExport(body, downloadHref);
  }
}
