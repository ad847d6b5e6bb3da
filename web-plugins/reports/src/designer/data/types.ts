/** Data sources and datasets as the dyreport service answers them (plugins/reports/README.md). */

export const SOURCE_TYPES = ['sqlite', 'duckdb', 'postgresql', 'mysql'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export interface DataSource {
  id: string;
  name: string;
  type?: SourceType;
  driver?: string;
  url?: string;
  host?: string | null;
  port?: number | null;
  database?: string | null;
  username?: string | null;
  path?: string | null;
  description?: string;
  queryTimeout?: number;
  hasCredentials?: boolean;
  updateTime?: number;
}

/** The structured body of datasource/save and datasource/validate. */
export interface DataSourceBody {
  id?: string;
  name: string;
  type: SourceType;
  host?: string;
  port?: number;
  database?: string;
  username?: string;
  password?: string;
  path?: string;
  description?: string;
  queryTimeout?: number;
}

export interface SourceCheck {
  ok: boolean;
  tables?: string[];
  error?: string;
}

export const FIELD_TYPES = ['text', 'time', 'integer', 'float'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FIELD_ROLES = ['dimension', 'quota'] as const;
export type FieldRole = (typeof FIELD_ROLES)[number];

export interface DatasetField {
  id: string;
  name: string;
  dataeaseName: string;
  originName: string;
  type: FieldType;
  role: FieldRole;
  tableId?: string;
  sourceType?: string;
  checked?: boolean;
  expression?: string;
  calculated?: boolean;
}

export type DatasetKind = 'table' | 'sql' | 'excel';
export type DatasetMode = 'direct' | 'extract';
export type SyncStatus = 'never' | 'running' | 'ok' | 'error';

export interface SyncState {
  status: SyncStatus;
  error?: string | null;
  rows?: number | null;
  lastSyncTime?: number | null;
  startedTime?: number | null;
  ready?: boolean;
}

export interface Dataset {
  id: string;
  name: string;
  datasourceId?: string | null;
  kind: DatasetKind;
  tableName?: string | null;
  sql?: string | null;
  mode: DatasetMode;
  syncInterval: number;
  version?: number;
  sync?: SyncState;
  fields?: DatasetField[];
}

export interface DatasetSaveBody {
  id?: string;
  name: string;
  datasourceId?: string | null;
  kind: DatasetKind;
  tableName?: string;
  sql?: string;
  mode: DatasetMode;
  syncInterval: number;
  fields?: { originName: string; name?: string; type?: FieldType; role?: FieldRole; checked?: boolean }[];
}

export interface FieldPatch {
  id: string;
  name?: string;
  type?: FieldType;
  role?: FieldRole;
  checked?: boolean;
}

/** A draft field as previewDraft answers it (before the dataset exists). */
export interface DraftField {
  originName: string;
  name: string;
  type: FieldType;
  role: FieldRole;
}

export type Row = Record<string, unknown>;

export interface PreviewResult<F> {
  fields: F[];
  rows: Row[];
}

export interface DraftRequest {
  datasourceId?: string;
  kind: 'table' | 'sql';
  tableName?: string;
  sql?: string;
}

export interface CalcFieldBody {
  id?: string;
  name: string;
  expression: string;
  type?: FieldType;
  role?: FieldRole;
}

/** The value of the source picker that stands for the platform database. */
export const PLATFORM = 'platform';
