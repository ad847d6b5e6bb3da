/**
 * The export flow of spec 4 and 7.2, for any page: create an asynchronous export task, poll its status once
 * a second until it is 2, then fetch the download address (getDownUrlByName) and download the file.
 * A poll that does not answer 800 shows a warning with the server's message and stops.
 *
 *   import { runDataExport } from 'atrium_transfer/exportTask';   // or loadRemote('atrium_transfer/exportTask')
 *   await runDataExport({ url: 'api/dyreport/chart/view/exportData', fileName: 'Sales',
 *                         columnList: [{ title: 'Region', key: 'region' }], params: { view, requestList } });
 */
import { getRequestConfig, request, RequestError, translate } from '@atrium/sdk';
import { downloadStored, type ExportRecord } from './api';

export const EXPORT_DONE = 2;
export const EXPORT_FAILED = 3;

export interface DataExportOptions {
  /** The export source, e.g. `api/dyreport/chart/view/exportData`. */
  url: string;
  fileName: string;
  excelType?: 'xlsx' | 'csv';
  method?: 'POST' | 'GET';
  /** Rows per sheet before a new sheet starts (spec 9: 100,000). */
  singleSheetMaxRows?: number;
  pageIndex?: number;
  /** Rows per page the source is asked for (spec 9: 1000). */
  pageRows?: number;
  columnList: { title: string; key: string; width?: number }[];
  params?: unknown;
  functionName?: string;
  resourceId?: string | number;
  /** Poll interval (spec 9: 1 second). */
  intervalMs?: number;
  maxPolls?: number;
  onProgress?: (record: ExportRecord) => void;
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => {
    clearTimeout(timer);
    reject(new DOMException('aborted', 'AbortError'));
  });
});

export async function runDataExport(options: DataExportOptions): Promise<ExportRecord> {
  const created = await request<{ exportId: number }>('dataexport/data-export/v2/export/', {
    method: 'POST',
    wrap: false,
    data: {
      url: options.url,
      fileName: options.fileName,
      excelType: options.excelType || 'xlsx',
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
  const interval = options.intervalMs ?? 1000;
  const maxPolls = options.maxPolls ?? 3600;
  for (let i = 0; i < maxPolls; i += 1) {
    await sleep(interval, options.signal);
    let record: ExportRecord;
    try {
      record = await request<ExportRecord>('dataexport/data-export/v2/get-export-result', {
        method: 'POST', params: { exportId: created.exportId }, silent: true,
      });
    } catch (err) {
      const text = err instanceof RequestError ? err.message : String(err);
      getRequestConfig().notify('warning', text);
      throw err;
    }
    options.onProgress?.(record);
    if (record.status === EXPORT_DONE) {
      await downloadStored(record.fileName, record.url);
      return record;
    }
    if (record.status === EXPORT_FAILED) {
      const text = record.errorMsg || translate('transfer:web.export.failed', 'Export failed');
      getRequestConfig().notify('error', text);
      throw new RequestError(text, EXPORT_FAILED);
    }
  }
  throw new RequestError(translate('transfer:web.export.timeout', 'The export is taking too long'), 408);
}

export default runDataExport;
