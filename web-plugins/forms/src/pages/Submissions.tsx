import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { App, Button, Card, Descriptions, Drawer, Input, Popconfirm, Select, Space, Spin, Table } from 'antd';
import { runExportTask, useT } from '@atrium/sdk';
import { EXPORT_URL, fieldLabel, formsApi, formTitle, type FormVersion, type SubmissionRow } from '../api';
import { kindOf, options, withDictionaries } from '../schemaInfo';

/** The editor draws the form, so it loads with the renderer only when an edit starts. */
const EditSubmission = lazy(() => import('./EditSubmission'));

/** `2026-11-18T23:06:13` as the spec shows times: `2026-11-18 23:06`. */
function when(v: string): string {
  return (v || '').replace('T', ' ').slice(0, 16);
}

/** A stored value as the user reads it: choices by their label, people and files by name. */
function text(v: any, prop?: any, locale = 'zh-cn'): string {
  if (v === null || v === undefined) return '';
  if (prop && (prop.enum || prop.items?.enum)) {
    const labels = new Map(options(prop, locale).map((o) => [o.value, o.label]));
    if (labels.size) return (Array.isArray(v) ? v : [v]).map((x) => labels.get(x) ?? String(x)).join(', ');
  }
  if (typeof v === 'boolean') return v ? '✓' : '';
  if (Array.isArray(v)) return v.map((x) => text(x)).join(prop?.items?.format === 'date' ? ' ~ ' : ', ');
  if (typeof v === 'object') return String(v.name ?? v.label ?? JSON.stringify(v));
  return String(v);
}

/** How many submissions match, in the locale's digits; past the server's count limit "10,000+". */
export function totalText(n: number, exact: boolean, t: ((key: string, options?: any) => string) & { locale: string }): string {
  let count = String(n);
  try {
    count = new Intl.NumberFormat(t.locale).format(n);
  } catch {
    /* an unknown locale tag: plain digits */
  }
  return t('web.totalCount', { total: exact ? count : t('web.atLeast', { total: count }) });
}

/** `/dynamic-form/render/:formId/submissions`: a form's submissions with search on any field, paging, detail, edit
 * where allowed, delete, export. */
export function SubmissionsPage() {
  const t = useT('forms');
  const { message } = App.useApp();
  const code = decodeURIComponent(useLocation().pathname.split('/').filter(Boolean)[2] || '');
  const [def, setDef] = useState<FormVersion | null>(null);
  const [rows, setRows] = useState<SubmissionRow[]>([]);
  const [total, setTotal] = useState(0);
  const [exact, setExact] = useState(true);
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [field, setField] = useState<string>('');
  const [value, setValue] = useState('');
  const [detail, setDetail] = useState<SubmissionRow | null>(null);
  const [editing, setEditing] = useState<SubmissionRow | null>(null);
  const [exporting, setExporting] = useState(false);
  useEffect(() => {
    // a form that is not published (or not found) has been told by the request: the list stays without labels
    formsApi.render(code).then(setDef, () => setDef(null));
  }, [code]);
  const schema = useMemo(() => (def ? withDictionaries(def.schema, def.dictionaries, t.locale) : null), [def, t.locale]);
  const params = useMemo(() => ({ formId: code, keyword, filters: field && value ? { [field]: value } : {} }), [code, keyword, field, value]);
  const load = useCallback(() => {
    formsApi.submissions({ ...params, pageNum: page, pageSize: 10 }).then((r) => {
      setRows(r.list);
      setTotal(r.total);
      setExact(r.totalExact !== false);
    }, () => undefined);
  }, [params, page]);
  useEffect(load, [load]);
  const fields = Object.entries<any>(schema?.properties || {}).filter(([, p]) => !['section', 'divider', 'table'].includes(kindOf(p)));
  const columns = [
    ...fields.slice(0, 6).map(([k, p]) => ({ title: fieldLabel(p, k, t.locale), key: k, ellipsis: kindOf(p) === 'textarea', width: kindOf(p) === 'textarea' ? 200 : undefined, render: (_: unknown, r: SubmissionRow) => text(r.data[k], p, t.locale) })),
    { title: t('web.status'), dataIndex: 'status', render: (s: string) => t(`web.statuses.${s}`) },
    { title: t('web.createdBy'), dataIndex: 'createdBy' },
    { title: t('web.createdAt'), dataIndex: 'createdAt', render: (v: string) => when(v) },
    {
      title: t('web.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, r: SubmissionRow) => (
        <Space>
          <Button size="small" onClick={() => setDetail(r)}>{t('web.view')}</Button>
          {r.canEdit && <Button size="small" onClick={() => setEditing(r)} data-testid={`edit-${r.submissionId}`}>{t('web.edit')}</Button>}
          <Popconfirm title={t('web.confirmDelete')} onConfirm={() => formsApi.removeSubmissions([Number(r.submissionId)]).then(load)}>
            <Button size="small" danger>{t('web.delete')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  const doExport = async () => {
    setExporting(true);
    try {
      await runExportTask({
        url: EXPORT_URL,
        fileName: def ? formTitle(def, t.locale) : code,
        columnList: [],
        params,
        functionName: def ? formTitle(def, t.locale) : code,
      });
      message.success(t('web.exported'));
    } catch (e: any) {
      message.error(e.message);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card title={`${def ? formTitle(def, t.locale) : code} · ${t('web.submissions')}`} extra={<Button loading={exporting} onClick={doExport} data-testid="form-export">{t('web.export')}</Button>}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search placeholder={t('web.searchAny')} allowClear onSearch={(v) => { setPage(1); setKeyword(v); }} style={{ width: 220 }} data-testid="form-search" />
        <Select style={{ width: 160 }} allowClear placeholder={t('web.field')} value={field || undefined} onChange={(v) => setField(v || '')} options={fields.map(([k, p]) => ({ value: k, label: fieldLabel(p, k, t.locale) }))} />
        <Input.Search placeholder={t('web.equals')} allowClear onSearch={(v) => { setPage(1); setValue(v); }} style={{ width: 180 }} />
      </Space>
      <div data-testid="submission-table">
        <Table rowKey="submissionId" size="small" dataSource={rows} columns={columns as any} scroll={{ x: 'max-content' }} pagination={{ current: page, total, pageSize: 10, onChange: setPage, showTotal: (n) => totalText(n, exact, t) }} />
      </div>
      <Drawer open={!!detail} onClose={() => setDetail(null)} title={t('web.detail')} size="large">
        {detail && (
          <Descriptions column={1} bordered size="small">
            {fields.map(([k, p]) => <Descriptions.Item key={k} label={fieldLabel(p, k, t.locale)}>{text(detail.data[k], p, t.locale)}</Descriptions.Item>)}
            <Descriptions.Item label={t('web.version')}>v{detail.version}</Descriptions.Item>
          </Descriptions>
        )}
      </Drawer>
      <Drawer open={!!editing} onClose={() => setEditing(null)} title={t('web.editSubmission')} size="large" destroyOnHidden>
        {editing && (
          <Suspense fallback={<Spin />}>
            <EditSubmission submissionId={editing.submissionId} onSaved={() => { setEditing(null); load(); }} />
          </Suspense>
        )}
      </Drawer>
    </Card>
  );
}
