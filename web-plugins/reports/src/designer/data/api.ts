/** The designer's calls for data sources and datasets, through the SDK's request client. */
import { request, upload } from '@atrium/sdk';
import { SERVICE } from '../../api';
import type {
  CalcFieldBody, DataSource, DataSourceBody, Dataset, DatasetField, DatasetSaveBody, DraftField, DraftRequest, FieldPatch,
  PreviewResult, SourceCheck, SyncState,
} from './types';
import { rulesBody, type RowRule } from './rowPermissions';

const path = (p: string) => `${SERVICE}/${p}`;
const id = (v: string) => encodeURIComponent(v);

export const dataApi = {
  sources: () => request<DataSource[]>(path('datasource/list'), { method: 'GET' }),
  saveSource: (body: DataSourceBody) => request<DataSource>(path('datasource/save'), { method: 'POST', data: body }),
  /** Silent: the page shows the outcome next to the form. */
  checkSource: (body: { id: string } | DataSourceBody) => request<SourceCheck>(path('datasource/validate'), { method: 'POST', data: body, silent: true }),
  deleteSource: (sourceId: string) => request<boolean>(path(`datasource/delete/${id(sourceId)}`), { method: 'POST', data: {} }),

  datasets: () => request<Dataset[]>(path('dataset/list'), { method: 'GET' }),
  dataset: (datasetId: string) => request<Dataset>(path(`dataset/get/${id(datasetId)}`), { method: 'GET' }),
  saveDataset: (body: DatasetSaveBody) => request<Dataset>(path('dataset/save'), { method: 'POST', data: body }),
  saveFields: (datasetId: string, fields: FieldPatch[]) => request<Dataset>(path(`dataset/fields/${id(datasetId)}`), { method: 'POST', data: { fields } }),
  deleteDataset: (datasetId: string) => request<boolean>(path(`dataset/delete/${id(datasetId)}`), { method: 'POST', data: {} }),
  preview: (datasetId: string) => request<PreviewResult<DatasetField>>(path(`dataset/preview/${id(datasetId)}`), { method: 'POST', data: {}, silent: true }),
  previewDraft: (body: DraftRequest) => request<PreviewResult<DraftField>>(path('dataset/previewDraft'), { method: 'POST', data: body, silent: true }),
  /** `sourceId` is a data source id or "platform". */
  tables: (sourceId: string) => request<string[]>(path(`dataset/tables/${id(sourceId)}`), { method: 'POST', data: {} }),
  sync: (datasetId: string) => request<SyncState>(path(`dataset/sync/${id(datasetId)}`), { method: 'POST', data: {} }),
  syncStatus: (datasetId: string) => request<SyncState>(path(`dataset/syncStatus/${id(datasetId)}`), { method: 'GET', silent: true }),
  importExcel: (file: File, name: string, headerRow: number) =>
    upload<Dataset>(path('dataset/importExcel'), file, { name, headerRow: String(headerRow) }),
  /** Silent: a refused expression is shown under the form with the server's message. */
  saveCalcField: (datasetId: string, body: CalcFieldBody) => request<DatasetField>(path(`dataset/calcField/${id(datasetId)}`), { method: 'POST', data: body, silent: true }),
  deleteCalcField: (datasetId: string, fieldId: string) =>
    request<boolean>(path(`dataset/calcField/delete/${id(datasetId)}/${id(fieldId)}`), { method: 'POST', data: {} }),
  rowPermissions: (datasetId: string) => request<RowRule[]>(path(`dataset/rowPermissions/${id(datasetId)}`), { method: 'GET', silent: true }),
  /** Silent: a refused rule is shown above the rules with the server's message. */
  saveRowPermissions: (datasetId: string, rules: RowRule[]) =>
    request<RowRule[]>(path(`dataset/rowPermissions/${id(datasetId)}`), { method: 'POST', data: { rules: rulesBody(rules) }, silent: true }),
};
