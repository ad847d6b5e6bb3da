import { request } from '@atrium/sdk';
import type { AuditRow, Page } from '../api';

/** One changed field of an audit record, in words. */
export interface AuditChange { field: string; label: string; before: string; after: string }

/** An audit record with its words in the reader's language (the API adds them to the stored fields). */
export interface AuditEntry extends AuditRow {
  atUtc: string; userId: number | null; targetType: string; targetName: string;
  userFullName: string; tenantName: string; who: string; actionText: string; targetTypeText: string; targetLabel: string;
  summary: string; changes: AuditChange[]; changesText: string;
}
export interface AuditAction { action: string; text: string }
export interface AuditPerson { userId: number; account: string; userFullName: string; label: string }

export interface AuditParams {
  tenantId?: number; keyword?: string; action?: string; userId?: number; dateFrom?: string; dateTo?: string;
  pageIndex?: number; pageRows?: number;
}

const C = 'admin';
/** Dates are the reader's local dates: the server shifts them by the browser's offset from UTC. */
const withZone = (params: AuditParams) => ({ ...params, tzOffset: new Date().getTimezoneOffset() });

export const auditApi = {
  page: (params: AuditParams) => request<Page<AuditEntry>>(`${C}/audit`, { params: withZone(params) }),
  exportCsv: (params: AuditParams) => request<{ fileName: string; content: string }>(`${C}/audit/export`, { params: withZone(params) }),
  actions: (tenantId?: number) => request<AuditAction[]>(`${C}/audit/actions`, { params: { tenantId } }),
  people: (tenantId?: number) => request<AuditPerson[]>(`${C}/audit/people`, { params: { tenantId } }),
};
