import { request } from '@atrium/sdk';

export type Json = Record<string, any>;

export interface Page<T> { list: T[]; total: number }

/** One field of a model's start form, declared on its start event (`<atrium:formField>`). */
export interface StartField {
  id: string;
  type: 'string' | 'text' | 'number' | 'date';
  label: string;
  labels: Record<string, string>;
  required: boolean;
  min: number | null;
  max: number | null;
}

export interface ModelInfo {
  modelId: string;
  key: string;
  name: string;
  category: string;
  latestVersion: number;
  deployedVersion: number | null;
  updatedAt: string;
  /** the deployed version's start form (the model list answers it) */
  startFields?: StartField[];
}

export interface ModelDetail extends ModelInfo { version: number; xml: string; versions: { version: number; createdAt: string; deployedAt: string | null }[] }

export interface TaskRow {
  taskId: string;
  processId: string;
  nodeId: string;
  name: string;
  formKey: string;
  status: string;
  claimedBy: number | null;
  createdAt: string;
  modelKey?: string;
  modelName?: string;
  startedBy?: number;
}

export interface InstanceRow {
  processId: string;
  modelKey: string;
  modelName: string;
  status: string;
  startedBy: number | null;
  error: string;
  createdAt: string;
  endedAt: string | null;
}

/** One step of an instance's history; `userName` is who did it (none for the engine's own steps). */
export interface HistoryRow { nodeId: string; name: string; action: string; userId: number | null; userName: string | null; comment: string; at: string }

export interface InstanceDetail extends InstanceRow {
  xml: string;
  variables: Json;
  startedByName: string | null;
  tasks: (TaskRow & { doneBy: number | null; doneByName: string | null; doneAt: string | null; comment: string })[];
  history: HistoryRow[];
  doneNodes: string[];
  activeNodes: string[];
}

export interface Counts { running: number; failed: number; normal: number; weekly: { date: string; count: number }[]; weekTotal: number }

export interface Problem { element: string; rule: string; message: string }

export const processApi = {
  models: (keyword = '', pageNum = 1, pageSize = 20) => request<Page<ModelInfo>>('process/model/list', { data: { keyword, pageNum, pageSize } }),
  model: (modelId: string, version?: number) => request<ModelDetail>('process/model/detail', { params: { modelId, version } }),
  save: (body: Json) => request<ModelInfo & { version: number }>('process/model/save', { data: body, silent: true }),
  importFile: (body: Json) => request<ModelInfo & { version: number }>('process/model/import', { data: body, silent: true }),
  deploy: (modelId: string, version?: number) => request<ModelInfo>('process/model/deploy', { data: { modelId, version }, silent: true }),
  start: (modelId: string, variables: Json) => request<InstanceRow>('process/instance/start', { data: { modelId, variables }, silent: true }),
  withdraw: (processId: string) => request<InstanceRow>('process/instance/withdraw', { data: { processId: Number(processId) } }),
  instance: (processId: string) => request<InstanceDetail>('process/instance/detail', { params: { processId } }),
  pending: (pageNum = 1, pageSize = 10) => request<Page<TaskRow>>('process/my/pending', { data: { pageNum, pageSize } }),
  upcoming: (pageNum = 1, pageSize = 10) => request<Page<TaskRow>>('process/my/upcoming', { data: { pageNum, pageSize } }),
  mine: (pageNum = 1, pageSize = 10) => request<Page<InstanceRow>>('process/my/process', { data: { pageNum, pageSize } }),
  claim: (taskId: string) => request<TaskRow>('process/task/claim', { data: { taskId: Number(taskId) } }),
  complete: (taskId: string, variables: Json, comment: string) => request<InstanceRow>('process/task/complete', { data: { taskId: Number(taskId), variables, comment } }),
  reject: (taskId: string, comment: string) => request<InstanceRow>('process/task/reject', { data: { taskId: Number(taskId), comment } }),
  counts: () => request<Counts>('process/count'),
};

export function when(v: string | null | undefined): string {
  return (v || '').replace('T', ' ').slice(0, 16);
}

/** Parse the variables box: empty is `{}`, anything but a JSON object is refused. */
export function parseVariables(text: string): Json | null {
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}
