import { getRequestConfig, request, RequestError } from './request';

/**
 * The export flow of spec `reports.md` 4 and 7.2, for any page: create an asynchronous task with the
 * `dataexport` service, poll it once a second until its status is 2, then ask the `file` service for the
 * download address (`getDownUrlByName`) and open it. A poll that does not answer 800 shows the server's
 * message as a warning and stops.
 */
export const EXPORT_DONE = 2;
export const EXPORT_FAILED = 3;

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
  /** Rows per page asked of the source (spec 9: 1000). */
  pageRows?: number;
  functionName?: string;
  resourceId?: string | number;
  intervalMs?: number;
  maxPolls?: number;
  onProgress?: (record: ExportRecord) => void;
  signal?: AbortSignal;
}

export interface ExportRecord {
  exportId: number | string;
  status: number;
  progress?: number;
  fileName: string;
  url: string;
  errorMsg?: string;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });

export async function runExportTask(options: ExportTaskOptions): Promise<ExportRecord> {
  const created = await request<{ exportId: number | string }>('dataexport/data-export/v2/export/', {
    method: 'POST',
    wrap: false,
    data: {
      url: options.url,
      fileName: options.fileName,
      excelType: options.excelType || 'xlsx',
      method: options.method || 'POST',
      singleSheetMaxRows: options.singleSheetMaxRows ?? 100000,
      pageIndex: 1,
      pageRows: options.pageRows ?? 1000,
      columnList: options.columnList,
      params: options.params ?? {},
      functionName: options.functionName,
      resourceId: options.resourceId,
    },
  });
  const maxPolls = options.maxPolls ?? 3600;
  for (let i = 0; i < maxPolls; i += 1) {
    await sleep(options.intervalMs ?? 1000, options.signal);
    let record: ExportRecord;
    try {
      record = await request<ExportRecord>('dataexport/data-export/v2/get-export-result', {
        method: 'POST',
        params: { exportId: created.exportId },
        silent: true,
      });
    } catch (err) {
      getRequestConfig().notify('warning', err instanceof RequestError ? err.message : String(err));
      throw err;
    }
    options.onProgress?.(record);
    if (record.status === EXPORT_DONE) {
      const href = await request<string>('file/iot-base-attachment/getDownUrlByName', {
        params: { fileName: record.fileName, oldUrl: record.url },
      });
      const a = document.createElement('a');
      a.href = href;
      a.download = record.fileName;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
      return record;
    }
    if (record.status === EXPORT_FAILED) throw new Error(record.errorMsg || 'export failed');
  }
  throw new Error('export timed out');
}
