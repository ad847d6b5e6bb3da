import { useEffect, useState, type ReactNode } from 'react';
import { Result, Select } from 'antd';
import type { TablePaginationConfig } from 'antd';
import { useT } from '@atrium/sdk';
import { api, isAdmin, isSuperAdmin, type Tenant } from './api';

export const PAGE_SIZE = 20;
/** Paging as the console's tables page: 20 rows, five page buttons. */
export function pager(total: number, current: number, onChange: (page: number) => void): TablePaginationConfig {
  return { total, current, pageSize: PAGE_SIZE, showSizeChanger: false, showLessItems: true, onChange };
}
/** Every row 36 px high. */
export const rowProps = () => ({ style: { height: 36 } });
export const ROW_CSS = '.atrium-admin .ant-table-tbody>tr>td{height:36px;padding-top:0;padding-bottom:0}';

export function AdminOnly({ children, superOnly = false }: { children: ReactNode; superOnly?: boolean }) {
  const t = useT('admin');
  if (!(superOnly ? isSuperAdmin() : isAdmin())) return <Result status="403" title={t('web.noAccess')} />;
  return <div className="atrium-admin at-page" style={{ padding: 16 }}><style>{ROW_CSS}</style>{children}</div>;
}

/** Super administrators pick the tenant they work in; supervisors stay in their own. */
export function TenantPicker({ value, onChange, placeholder }: {
  value?: number; onChange: (v?: number) => void; placeholder?: string;
}) {
  const t = useT('admin');
  const [tenants, setTenants] = useState<Tenant[]>([]);
  useEffect(() => { if (isSuperAdmin()) api.tenants().then(setTenants, () => undefined); }, []);
  if (!isSuperAdmin()) return null;
  return (
    <Select allowClear showSearch optionFilterProp="label" placeholder={placeholder ?? t('web.tenantName')} style={{ width: 220 }} value={value}
      aria-label={t('web.tenantName')} data-testid="tenant-picker" onChange={(v) => onChange(v as number | undefined)}
      options={tenants.map((x) => ({ value: x.tenantId, label: `${x.tenantName} (${x.tenantId})` }))} />
  );
}

export const PHONE = /^\+?[0-9][0-9 -]{4,30}$/;
export const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
