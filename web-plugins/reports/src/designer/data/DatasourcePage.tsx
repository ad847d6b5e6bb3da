/** Data sources (administrators): list, create and edit per type, test the connection, delete. The platform's
 * own database, which serves datasets made without a data source (the demo's among them), is listed first as
 * a built-in source: read-only, never edited or deleted. */
import { Alert, App, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { dataApi } from './api';
import { useDT } from './i18n';
import { DEFAULT_PORTS, isFileSource, sourceAddress, sourceBody, sourceErrors, sourceFormValues, type SourceFormValues } from './sourceForm';
import { PLATFORM, SOURCE_TYPES, type DataSource, type SourceCheck, type SourceType } from './types';
import { useIsPhone } from './useIsPhone';

const PAGE_SIZE = 20;

/** A row of the list: a data source, or the built-in platform database. */
type SourceRow = DataSource & { builtin?: boolean };

export default function DatasourcePage() {
  const { t } = useDT();
  const { message } = App.useApp();
  const [sources, setSources] = useState<DataSource[]>([]);
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<DataSource | null | undefined>(undefined);

  const load = useCallback(() => {
    setLoading(true);
    dataApi
      .sources()
      .then((list) => setSources(list || []))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, []);
  useEffect(load, [load]);

  const shown = useMemo(() => {
    const platform: SourceRow = { id: PLATFORM, name: t('dataset.platform'), description: t('source.builtinDescription'), builtin: true };
    const rows: SourceRow[] = [platform, ...sources.filter((s) => s.id !== PLATFORM)];
    const q = search.trim().toLowerCase();
    return q ? rows.filter((s) => `${s.name} ${s.description || ''} ${sourceAddress(s)}`.toLowerCase().includes(q)) : rows;
  }, [sources, search, t]);

  const remove = async (s: DataSource) => {
    try {
      await dataApi.deleteSource(s.id);
      message.success(t('common.deleted'));
      load();
    } catch {
      // the request client shows the server's reason (e.g. datasets still use the source)
    }
  };

  const columns: ColumnsType<SourceRow> = [
    { title: t('source.name'), dataIndex: 'name', ellipsis: true, render: (v: string, s) => <span data-testid={s.builtin ? 'source-builtin' : undefined}>{v}</span> },
    {
      title: t('source.type'),
      dataIndex: 'type',
      width: 130,
      render: (v: SourceType | undefined, s) => (s.builtin ? <Tag color="blue">{t('source.builtin')}</Tag> : <Tag>{v ? t(`source.types.${v}`) : s.driver}</Tag>),
    },
    { title: t('source.address'), key: 'address', ellipsis: true, responsive: ['md'], render: (_, s) => (s.builtin ? t('source.builtinAddress') : sourceAddress(s)) },
    { title: t('source.description'), dataIndex: 'description', ellipsis: true, responsive: ['lg'] },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 150,
      render: (_, s) => s.builtin ? (
        <Tooltip title={t('source.builtinHint')}>
          <Tag data-testid="source-builtin-readonly">{t('source.readOnly')}</Tag>
        </Tooltip>
      ) : (
        <Space size={4}>
          <Button size="small" type="link" data-testid={`source-edit-${s.name}`} onClick={() => setEditing(s)}>
            {t('common.edit')}
          </Button>
          <Popconfirm title={t('source.deleteConfirm', { name: s.name })} okText={t('common.delete')} cancelText={t('common.cancel')} onConfirm={() => remove(s)}>
            <Button size="small" type="link" danger data-testid={`source-delete-${s.name}`}>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('source.title')}
      data-testid="datasource-page"
      extra={
        <Button type="primary" data-testid="source-new" onClick={() => setEditing(null)}>
          {t('source.new')}
        </Button>
      }
      styles={{ body: { padding: 12 } }}
    >
      <Input.Search allowClear placeholder={t('source.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ maxWidth: 320, marginBottom: 12 }} data-testid="source-search" />
      <Table<SourceRow>
        rowKey="id"
        rowClassName={(s) => (s.builtin ? 'rpt-source-builtin' : '')}
        size="small"
        loading={loading}
        columns={columns}
        dataSource={shown}
        pagination={{ pageSize: PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true, showTotal: (n) => t('common.total', { count: n }) }}
        locale={{ emptyText: t('source.empty') }}
        scroll={{ x: 'max-content' }}
      />
      {editing !== undefined && (
        <SourceDialog
          source={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            load();
          }}
        />
      )}
    </Card>
  );
}

function SourceDialog({ source, onClose, onSaved }: { source: DataSource | null; onClose: () => void; onSaved: () => void }) {
  const { t, locale } = useDT();
  const { message } = App.useApp();
  const phone = useIsPhone();
  const [form] = Form.useForm<SourceFormValues>();
  const type = Form.useWatch('type', form) || source?.type || 'postgresql';
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [check, setCheck] = useState<SourceCheck | null>(null);
  const editing = !!source;

  /** The form's values checked like the server does; undefined (and the errors shown) when wrong. */
  const values = async (): Promise<SourceFormValues | undefined> => {
    try {
      await form.validateFields();
    } catch {
      return undefined;
    }
    const v = form.getFieldsValue(true) as SourceFormValues;
    return Object.keys(sourceErrors(v, editing)).length ? undefined : v;
  };

  const rule = (name: keyof SourceFormValues) => ({
    validator: async () => {
      const error = sourceErrors(form.getFieldsValue(true) as SourceFormValues, editing)[name];
      if (error) throw new Error(t(`source.error.${error}`));
    },
  });

  const test = async () => {
    const v = await values();
    if (!v) return;
    setTesting(true);
    setCheck(null);
    try {
      // with the id and no password the server tests with the stored one
      setCheck(await dataApi.checkSource(sourceBody(v, source?.id)));
    } catch (e) {
      setCheck({ ok: false, error: (e as Error).message });
    } finally {
      setTesting(false);
    }
  };

  const save = async () => {
    const v = await values();
    if (!v) return;
    setSaving(true);
    try {
      await dataApi.saveSource(sourceBody(v, source?.id));
      message.success(t('common.saved'));
      onSaved();
    } catch {
      // shown by the request client
    } finally {
      setSaving(false);
    }
  };

  const onTypeChange = (next: SourceType) => {
    setCheck(null);
    if (!isFileSource(next)) {
      const port = form.getFieldValue('port');
      if (!port || Object.values(DEFAULT_PORTS).includes(port)) form.setFieldValue('port', DEFAULT_PORTS[next as 'postgresql' | 'mysql']);
    }
  };

  return (
    <Modal
      open
      title={editing ? t('source.editTitle', { name: source!.name }) : t('source.new')}
      onCancel={onClose}
      width={phone ? '100%' : 640}
      destroyOnHidden
      footer={[
        <Button key="test" data-testid="source-test" loading={testing} onClick={() => void test()}>
          {t('source.test')}
        </Button>,
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" data-testid="source-save" loading={saving} onClick={() => void save()}>
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form form={form} layout="vertical" initialValues={sourceFormValues(source)} data-testid="source-form" onValuesChange={() => setCheck(null)}>
        <Form.Item name="name" label={t('source.name')} rules={[rule('name')]}>
          <Input maxLength={100} data-testid="source-name" />
        </Form.Item>
        <Form.Item name="type" label={t('source.type')}>
          <Select<SourceType> data-testid="source-type" onChange={onTypeChange} options={SOURCE_TYPES.map((v) => ({ value: v, label: t(`source.types.${v}`) }))} />
        </Form.Item>
        {isFileSource(type) ? (
          <Form.Item name="path" label={t('source.path')} extra={t('source.pathHint')} rules={[rule('path')]}>
            <Input data-testid="source-path" placeholder={type === 'duckdb' ? '/data/warehouse.duckdb' : '/data/sales.db'} />
          </Form.Item>
        ) : (
          <>
            <div style={{ display: 'flex', gap: 12 }}>
              <Form.Item name="host" label={t('source.host')} rules={[rule('host')]} style={{ flex: 3, minWidth: 0 }}>
                <Input data-testid="source-host" placeholder="db.example.com" />
              </Form.Item>
              <Form.Item name="port" label={t('source.port')} rules={[rule('port')]} style={{ flex: 1, minWidth: 90 }}>
                <InputNumber data-testid="source-port" precision={0} controls={false} style={{ width: '100%' }} />
              </Form.Item>
            </div>
            <Form.Item name="database" label={t('source.database')} rules={[rule('database')]}>
              <Input data-testid="source-database" />
            </Form.Item>
            <Form.Item name="username" label={t('source.username')} rules={[rule('username')]}>
              <Input data-testid="source-username" autoComplete="off" />
            </Form.Item>
            <Form.Item name="password" label={t('source.password')} extra={editing ? t('source.passwordKeep') : undefined} rules={[rule('password')]}>
              <Input.Password data-testid="source-password" autoComplete="new-password" />
            </Form.Item>
          </>
        )}
        <Form.Item name="queryTimeout" label={t('source.queryTimeout')} extra={t('source.queryTimeoutHint')} rules={[rule('queryTimeout')]}>
          <InputNumber min={0} max={3600} precision={0} addonAfter={t('common.seconds')} style={{ width: 200 }} data-testid="source-timeout" />
        </Form.Item>
        <Form.Item name="description" label={t('source.description')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
      {check && (
        <Alert
          data-testid="source-check"
          type={check.ok ? 'success' : 'error'}
          showIcon
          message={check.ok ? t('source.testOk', { count: check.tables?.length ?? 0, formatted: (check.tables?.length ?? 0).toLocaleString(locale) }) : t('source.testFailed')}
          description={check.ok ? undefined : check.error}
        />
      )}
    </Modal>
  );
}
