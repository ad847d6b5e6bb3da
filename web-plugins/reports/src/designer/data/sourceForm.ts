/** The data source form: which settings each type needs, client-side checks mirroring the server, the save body. */
import type { DataSource, DataSourceBody, SourceType } from './types';

export interface SourceFormValues {
  name: string;
  type: SourceType;
  host?: string;
  port?: number | null;
  database?: string;
  username?: string;
  password?: string;
  path?: string;
  description?: string;
  queryTimeout?: number | null;
}

export const DEFAULT_PORTS: Record<'postgresql' | 'mysql', number> = { postgresql: 5432, mysql: 3306 };

/** SQLite and DuckDB are files on the server; the others are servers reached over the network. */
export function isFileSource(type: SourceType): boolean {
  return type === 'sqlite' || type === 'duckdb';
}

export function isValidPort(port: unknown): boolean {
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535;
}

/** The keys (reportsData `source.error.*`) of the settings that are missing or wrong, by field name. */
export function sourceErrors(v: SourceFormValues, editing: boolean): Partial<Record<keyof SourceFormValues, string>> {
  const errors: Partial<Record<keyof SourceFormValues, string>> = {};
  if (!v.name?.trim()) errors.name = 'required';
  if (isFileSource(v.type)) {
    if (!v.path?.trim()) errors.path = 'required';
  } else {
    if (!v.host?.trim()) errors.host = 'required';
    if (!isValidPort(v.port)) errors.port = 'port';
    if (!v.database?.trim()) errors.database = 'required';
    if (!v.username?.trim()) errors.username = 'required';
    // on edit an empty password keeps the stored one
    if (!editing && !v.password) errors.password = 'required';
  }
  if (v.queryTimeout !== undefined && v.queryTimeout !== null && (v.queryTimeout < 0 || v.queryTimeout > 3600)) errors.queryTimeout = 'timeout';
  return errors;
}

/** The structured save / validate body: only the settings of the chosen type. */
export function sourceBody(v: SourceFormValues, id?: string): DataSourceBody {
  const body: DataSourceBody = { name: v.name.trim(), type: v.type, description: v.description?.trim() || '', queryTimeout: v.queryTimeout ?? 0 };
  if (id) body.id = id;
  if (isFileSource(v.type)) {
    body.path = v.path?.trim();
  } else {
    body.host = v.host?.trim();
    body.port = v.port ?? undefined;
    body.database = v.database?.trim();
    body.username = v.username?.trim();
    if (v.password) body.password = v.password;
  }
  return body;
}

/** The form's starting values for a new source or an existing one (the password is never shown back). */
export function sourceFormValues(source?: DataSource | null): SourceFormValues {
  if (!source) return { name: '', type: 'postgresql', port: DEFAULT_PORTS.postgresql, queryTimeout: 30 };
  const type = source.type || 'postgresql';
  return {
    name: source.name,
    type,
    host: source.host || undefined,
    port: source.port ?? (isFileSource(type) ? undefined : DEFAULT_PORTS[type as 'postgresql' | 'mysql']),
    database: source.database || undefined,
    username: source.username || undefined,
    password: '',
    path: source.path || undefined,
    description: source.description || '',
    queryTimeout: source.queryTimeout ?? 30,
  };
}

/** Where a source points, for the list: the file, or host:port/database. */
export function sourceAddress(s: DataSource): string {
  if (s.path) return s.path;
  if (s.host) return `${s.host}${s.port ? `:${s.port}` : ''}${s.database ? `/${s.database}` : ''}`;
  return s.url || '';
}
