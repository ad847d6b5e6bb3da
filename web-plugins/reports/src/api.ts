/**
 * Calls of the dyreport service (spec 7.1) through the SDK's request client. On a shared link page every
 * call carries the link's token (header `linkToken`), which the server checks instead of a session.
 */
import { request, runExportTask, saveBlob, type ExportRequester, type RequestOptions } from '@atrium/sdk';
import type { ChartView, DrillItem, FilterItem, JumpInfo, LinkValidation, PanelDetail } from './model/types';
import type { LinkageInfo } from './model/jump';

export const SERVICE = 'dyreport';

/** How the viewer reaches the server: signed in, or through a shared link's token. */
export interface Access {
  linkToken?: string;
  /** Whose data scope data and option calls ask for (spec 6): the panel's proxy user when it has one,
   * else on a shared link the link's user (its owner). */
  user?: number | string | null;
}

function opts(access: Access | undefined, extra: RequestOptions = {}): RequestOptions {
  const headers = { ...(extra.headers || {}) };
  if (access?.linkToken) headers.linkToken = access.linkToken;
  return { ...extra, headers };
}

export const api = {
  resolveLink: (id: string) => request<{ link: string; user: number | null; systemCode?: string }>(`${SERVICE}/link/${encodeURIComponent(id)}`, { method: 'GET', silent: true }),
  validate: (body: { link: string; systemCode?: string; user?: unknown }, token?: string) =>
    request<LinkValidation>(`${SERVICE}/api/link/validate`, opts({ linkToken: token }, { method: 'POST', data: body, silent: true })),
  validatePwd: (body: { password: string; resourceId: string | null; user?: unknown; link?: string }) =>
    request<{ linkToken?: string } | false | null>(`${SERVICE}/api/link/validatePwd`, { method: 'POST', data: body, silent: true }),
  resourceDetail: (id: string, access: Access) => request<PanelDetail>(`${SERVICE}/api/link/resourceDetail/${encodeURIComponent(id)}`, opts(access, { method: 'GET', silent: true })),
  panel: (id: string) => request<PanelDetail>(`${SERVICE}/panel/findOne/${encodeURIComponent(id)}`, { method: 'GET', silent: true }),
  panels: () => request<{ id: string; name: string; privileges?: string }[]>(`${SERVICE}/panel/list`, { method: 'GET', silent: true }),
  view: (viewId: string, panelId: string, access?: Access) =>
    request<ChartView>(`${SERVICE}/chart/view/get/${encodeURIComponent(viewId)}/${encodeURIComponent(panelId)}`, opts(access, { method: 'POST', data: {}, silent: true })),
  data: (viewId: string, panelId: string, body: DataBody, access?: Access) =>
    request<ChartView>(`${SERVICE}/chart/view/getData/${encodeURIComponent(viewId)}/${encodeURIComponent(panelId)}`, opts(access, { method: 'POST', data: body, silent: true })),
  fieldValues: (fieldIds: string[], panelId: string, access?: Access) =>
    access?.linkToken
      ? request<unknown[]>(`${SERVICE}/dataset/field/linkMultFieldValues`, opts(access, { method: 'POST', data: { fieldIds, panelId, userId: access.user ?? undefined }, silent: true }))
      : request<unknown[]>(`${SERVICE}/dataset/field/multFieldValues`, { method: 'POST', data: { fieldIds, panelId, userId: access?.user ?? undefined }, silent: true }),
  linkage: (panelId: string, access?: Access) => request<LinkageInfo>(`${SERVICE}/linkage/getPanelAllLinkageInfo/${encodeURIComponent(panelId)}`, opts(access, { method: 'GET', silent: true })),
  jumps: (panelId: string, access?: Access) =>
    request<{ baseJumpInfoMap: Record<string, JumpInfo> }>(`${SERVICE}/linkJump/queryPanelJumpInfo/${encodeURIComponent(panelId)}`, opts(access, { method: 'GET', silent: true })),
  targetJump: (body: { sourcePanelId: string; sourceViewId: string; sourceFieldId?: string; targetPanelId: string }, access?: Access) =>
    request<{ baseJumpInfoVisualMap: Record<string, string[]> }>(`${SERVICE}/linkJump/queryTargetPanelJumpInfo`, opts(access, { method: 'POST', data: body, silent: true })),
};

/** The getData body (spec 7.1). */
export interface DataBody {
  filter: FilterItem[];
  linkageFilters: FilterItem[];
  outerParamsFilters?: FilterItem[];
  urlFilter?: FilterItem[];
  drill: DrillItem[];
  queryFrom: 'panel';
  cache: boolean;
  resultMode?: string;
  resultCount?: number;
  pageSize?: number;
  goPage?: number;
  sort?: { fieldId: string; key: string; sort: 'asc' | 'desc' }[];
  user?: number | string | null;
}

// ---------------------------------------------------------------------------------------------------------
// export (spec 4, 7.2)
// ---------------------------------------------------------------------------------------------------------

export const EXPORT_SOURCE = 'api/dyreport/chart/view/exportData';
export const EXPORT_POLL_MS = 1000;

export interface ExportTaskBody {
  url: string;
  fileName: string;
  excelType: 'xlsx';
  method: 'POST';
  singleSheetMaxRows: number;
  pageIndex: number;
  pageRows: number;
  columnList: { key: string; title: string }[];
  params: { viewId: string; panelId: string; requestList: Partial<DataBody> };
  functionName: string;
  resourceId?: string;
}

/** The export task settings of spec 7.2 for one view. */
export function exportTaskBody(view: Pick<ChartView, 'id' | 'title' | 'name'>, panelId: string, columns: { key: string; title: string }[], requestList: Partial<DataBody>, resourceId?: string): ExportTaskBody {
  const body: ExportTaskBody = {
    url: EXPORT_SOURCE,
    fileName: view.title || view.name || 'export',
    excelType: 'xlsx',
    method: 'POST',
    singleSheetMaxRows: 100000,
    pageIndex: 1,
    pageRows: 1000,
    columnList: columns,
    params: { viewId: view.id, panelId, requestList },
    functionName: view.title || view.name || '',
  };
  if (resourceId) body.resourceId = resourceId;
  return body;
}

/** The export task calls of a shared link's client: the same flow, answered by the link's own routes
 * (`api/link/export`, `api/link/export/result`) and proven by the link's token, as its data calls are. */
export const LINK_EXPORT = `${SERVICE}/api/link/export`;

/** The SDK flow's request client for a shared link's client: its two task calls go to the link's routes,
 * every call carries the link's token. */
export function linkExportRequester(access: Access, call: ExportRequester = (path, o) => request(path, o)): ExportRequester {
  return <T>(path: string, options: RequestOptions) => {
    const target = path.startsWith('dataexport/data-export/v2/get-export-result')
      ? `${LINK_EXPORT}/result`
      : path.startsWith('dataexport/data-export/v2/export')
        ? LINK_EXPORT
        : path;
    return call<T>(target, opts(access, options));
  };
}

/** Fetches a link export's file with the link's token (only the client that started it may) and saves it. */
export async function downloadLinkExport(
  href: string,
  fileName: string,
  access: Access,
  save: (blob: Blob, name: string) => void = saveBlob,
  call: ExportRequester = (path, o) => request(path, o),
): Promise<void> {
  const blob = await call<Blob>(href, opts(access, { method: 'GET', blob: true, silent: true }));
  save(blob, fileName);
}

/**
 * Spec 4: the SDK's export flow for one view's task: submitted, polled once a second until its status is 2,
 * then the address the result carries handed to `download`. Nothing is shown here: a failure rejects with the
 * server's message and the caller shows it as a warning.
 */
export async function runViewExport(
  body: ExportTaskBody,
  download: (url: string, fileName: string) => void,
  deps: { request?: ExportRequester; sleep?: (ms: number) => Promise<void>; maxPolls?: number } = {},
): Promise<void> {
  await runExportTask({
    ...body,
    intervalMs: EXPORT_POLL_MS,
    maxPolls: deps.maxPolls,
    notify: false,
    downloadFrom: 'result',
    download,
    request: deps.request,
    sleep: deps.sleep,
  });
}
