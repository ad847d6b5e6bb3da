import { downloadHref, request, upload } from '@atrium/sdk';

const IMPORT = 'import/import-header';
const EXPORT = 'dataexport/data-export/v2';

export interface TargetField {
  key: string;
  label: string;
  type: string;
  required: boolean;
}

export interface ImportTarget {
  importId: string;
  name: string;
  fields: TargetField[];
}

export interface Uploaded {
  batchId: number;
  batch: string;
  fileName: string;
  sheetName: string;
  totalRows: number;
  totalColumns: number;
  rows: string[][];
}

export interface Columns {
  batchId: number;
  headerRow: number;
  columns: { index: number; title: string }[];
  fields: TargetField[];
  autoMatch: { field: string; column: number }[];
}

/** Import result (spec 3.8) with the batch's counters. */
export interface ImportResult {
  batchId: number;
  batch: string;
  status: number;
  fileName: string;
  dataCount: number;
  totalCount: number;
  successCount: number;
  failCount: number;
  hasExcel: boolean;
  excelUrl: string;
  checkMsg: string;
  errorMsg: string;
  creationDate: string;
  createdUserName: string;
}

/** Export record (spec 3.8). */
export interface ExportRecord {
  exportId: number;
  status: number;
  progress: number;
  requestUrl: string;
  creationDate: string;
  functionName: string;
  userName: string;
  action: string;
  errorMsg: string;
  fileName: string;
  url: string;
  rowCount: number;
}

export interface Page<T> {
  list: T[];
  total: number;
}

export const targets = () => request<ImportTarget[]>(`${IMPORT}/targets`);
export const uploadWorkbook = (file: File, importId: string) => upload<Uploaded>(`${IMPORT}/upload`, file, { importId });
export const importData = (file: File, importId: string) => upload<ImportResult>(`${IMPORT}/import-data`, file, { importId });
export const columns = (batchId: number, headerRow: number) =>
  request<Columns>(`${IMPORT}/columns`, { method: 'POST', data: { batchId, headerRow } });
export const start = (batchId: number, headerRow: number, mapping: Record<string, number | null>) =>
  request<ImportResult>(`${IMPORT}/start`, { method: 'POST', data: { batchId, headerRow, mapping }, timeout: 1000000 });
export const result = (batchId: number) => request<ImportResult>(`${IMPORT}/result`, { params: { batchId }, silent: true });
export const history = (importId: string, pageNum: number, pageSize: number) =>
  request<Page<ImportResult>>(`${IMPORT}/history`, { method: 'POST', data: { importId, pageNum, pageSize } });
export const templateBlob = (importId: string) => request<Blob>(`${IMPORT}/template`, { params: { importId }, blob: true });

export const exportRecords = (pageNum: number, pageSize: number, status?: number) =>
  request<Page<ExportRecord>>(`${EXPORT}/list`, { method: 'POST', data: { pageNum, pageSize, status } });

/** A short-lived download address for a stored file (spec 7.2: getDownUrlByName). */
export const downUrl = (fileName: string, oldUrl: string) =>
  request<string>('file/iot-base-attachment/getDownUrlByName', { params: { fileName, oldUrl } });

/** Opens a stored file's download in the browser. */
export async function downloadStored(fileName: string, oldUrl: string): Promise<void> {
  downloadHref(await downUrl(fileName, oldUrl), fileName);
}
