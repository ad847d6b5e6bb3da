import { appUrl } from './base';
import { getRequestConfig, request, RequestError, type RequestOptions } from './request';

/**
 * The export flow of spec `reports.md` 4 and 7.2, for any page, and the only one: create an asynchronous task
 * with the `dataexport` service, poll it once a second until its status is 2, then ask the `file` service for
 * the download address (`getDownUrlByName`) and open it.
 *
 * What goes wrong is shown by the flow (unless `notify` is false: then the caller shows the rejection's
 * message): a poll that does not answer 800 shows the server's message as a warning and stops, a failed or
 * expired task shows its reason as an error. The promise rejects in every such case.
 *
 *   import { runExportTask } from '@atrium/sdk';
 *   await runExportTask({ url: 'api/dyreport/chart/view/exportData', fileName: 'Sales',
 *                        columnList: [{ title: 'Region', key: 'region' }], params: { view, requestList } });
 */
export const EXPORT_WAITING = 0;
export const EXPORT_RUNNING = 1;
export const EXPORT_DONE = 2;
export const EXPORT_FAILED = 3;
export const EXPORT_EXPIRED = 4;

/** The request client's signature (a test hands in its own). */
export type ExportRequester = <T>(path: string, options: RequestOptions) => Promise<T>;

export interface ExportTaskOptions {
  /** The export source, e.g. `api/dyreport/chart/view/exportData`. */
  url: string;
  fileName: string;
  columnList: { title: string; key: string; width?: number }[];
  params?: unknown;
  excelType?: 'xlsx' | 'csv';
  method?: 'POST' | 'GET';
  /** Rows per sheet before a new sheet starts (spec 9: 100,000). */
  singleSheetMaxRows?: number;
  /** The first page asked of the source (1). */
  pageIndex?: number;
  /** Rows per page asked of the source (spec 9: 1000). */
  pageRows?: number;
  functionName?: string;
  resourceId?: string | number;
  /** Poll interval (spec 9: 1 second). */
  intervalMs?: number;
  maxPolls?: number;
  onProgress?: (record: ExportRecord) => void;
  signal?: AbortSignal;
  /** Whether the flow shows what went wrong (true); false leaves it to the caller (the promise still rejects). */
  notify?: boolean;
  /** The texts of a failed task without a reason and of a task that never ends (English by default). */
  texts?: { failed?: string; timeout?: string };
  /** Where the file is fetched from: a short-lived address from `getDownUrlByName` (the default), or the
   * address the task's result carries (its signed `downloadUrl`, else `url`), which saves a request. */
  downloadFrom?: 'getDownUrlByName' | 'result';
  /** Starts the download (by default a link to the address is clicked). */
  download?: (href: string, fileName: string) => void;
  /** The request client (tests). */
  request?: ExportRequester;
  /** Waits between two polls (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A task's state as `get-export-result` answers it. */
export interface ExportRecord {
  exportId: number | string;
  status: number;
  progress?: number;
  fileName: string;
  url: string;
  /** A signed address of the finished file. */
  downloadUrl?: string;
  errorMsg?: string;
}

function abortError(): DOMException {
  return new DOMException('aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Clicks a link to the file's address (nothing without an address). */
export function downloadHref(href: string, fileName: string): void {
  if (!href) return;
  const a = document.createElement('a');
  a.href = appUrl(href);
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Whether a task ended without a file: failed, expired or unknown (a negative status). */
function hasFailed(status: number): boolean {
  return status === EXPORT_FAILED || status === EXPORT_EXPIRED || status < 0;
}

export async function runExportTask(options: ExportTaskOptions): Promise<ExportRecord> {
  const call: ExportRequester = options.request ?? ((path, opts) => request(path, opts));
  const wait = options.sleep ?? sleep;
  const notify = options.notify !== false;
  const excelType = options.excelType || 'xlsx';
  const created = await call<{ exportId: number | string }>('dataexport/data-export/v2/export/', {
    method: 'POST',
    wrap: false,
    silent: !notify,
    data: {
      url: options.url,
      fileName: options.fileName,
      excelType,
      method: options.method || 'POST',
      singleSheetMaxRows: options.singleSheetMaxRows ?? 100000,
      pageIndex: options.pageIndex ?? 1,
      pageRows: options.pageRows ?? 1000,
      columnList: options.columnList,
      params: options.params ?? {},
      functionName: options.functionName,
      resourceId: options.resourceId,
    },
  });
  const maxPolls = options.maxPolls ?? 3600;
  for (let i = 0; i < maxPolls; i += 1) {
    await wait(options.intervalMs ?? 1000, options.signal);
    let record: ExportRecord;
    try {
      record = await call<ExportRecord>('dataexport/data-export/v2/get-export-result', {
        method: 'POST',
        params: { exportId: created?.exportId },
        silent: true,
      });
    } catch (err) {
      if (notify) getRequestConfig().notify('warning', err instanceof RequestError ? err.message : String(err));
      throw err;
    }
    options.onProgress?.(record);
    const status = Number(record?.status);
    if (status === EXPORT_DONE) {
      const fileName = record.fileName || `${options.fileName}.${excelType}`;
      const href = options.downloadFrom === 'result'
        ? record.downloadUrl || record.url || ''
        : await call<string>('file/iot-base-attachment/getDownUrlByName', { params: { fileName: record.fileName, oldUrl: record.url } });
      (options.download ?? downloadHref)(href, fileName);
      return record;
    }
    if (hasFailed(status)) {
      const text = record.errorMsg || options.texts?.failed || 'export failed';
      if (notify) getRequestConfig().notify('error', text);
      throw new RequestError(text, EXPORT_FAILED);
    }
  }
  throw new RequestError(options.texts?.timeout || 'export timed out', 408);
}
