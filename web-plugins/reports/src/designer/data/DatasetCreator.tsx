/** A new dataset: from a table (a data source or the platform database), from SQL, or from an Excel upload. */
import { Alert, App, Button, Checkbox, Form, Input, InputNumber, Radio, Select, Space, Table, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { dataApi } from './api';
import { draftColumns, fieldsForSave, isExcelFile, suggestedName, type DraftColumn } from './datasetForm';
import { RoleSelect, TypeSelect } from './FieldSelects';
import { useDT } from './i18n';
import { PreviewTable } from './PreviewTable';
import { ModeFields } from './ModeFields';
import { PLATFORM, type DataSource, type Dataset, type DatasetMode, type Row } from './types';

type Origin = 'table' | 'sql' | 'excel';

export function DatasetCreator({ sources, onCreated }: { sources: DataSource[]; onCreated: (d: Dataset) => void }) {
  const { t } = useDT();
  const { message } = App.useApp();
  const [origin, setOrigin] = useState<Origin>('table');
  const [sourceId, setSourceId] = useState<string>(PLATFORM);
  const [tables, setTables] = useState<string[]>([]);
  const [tableName, setTableName] = useState<string>();
  const [sql, setSql] = useState('');
  const [name, setName] = useState('');
  const [mode, setMode] = useState<DatasetMode>('direct');
  const [syncInterval, setSyncInterval] = useState(0);
  const [columns, setColumns] = useState<DraftColumn[]>([]);
  const [rows, setRows] = useState<Row[]>([]);
  const [previewing, setPreviewing] = useState(false);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [headerRow, setHeaderRow] = useState(1);

  const resetDraft = () => {
    setColumns([]);
    setRows([]);
    setPreviewError(null);
  };

  useEffect(() => {
    if (origin !== 'table') return;
    setTables([]);
    setTableName(undefined);
    resetDraft();
    dataApi.tables(sourceId).then((list) => setTables(list || [])).catch(() => undefined);
  }, [sourceId, origin]);

  const runPreview = async (request: { kind: 'table' | 'sql'; tableName?: string; sql?: string }) => {
    setPreviewing(true);
    setPreviewError(null);
    try {
      const draft = await dataApi.previewDraft({ ...request, datasourceId: sourceId === PLATFORM ? undefined : sourceId });
      setColumns(draftColumns(draft.fields || []));
      setRows(draft.rows || []);
    } catch (e) {
      resetDraft();
      setPreviewError((e as Error).message);
    } finally {
      setPreviewing(false);
    }
  };

  const pickTable = (table: string) => {
    setTableName(table);
    if (!name) setName(suggestedName(table));
    void runPreview({ kind: 'table', tableName: table });
  };

  const editColumn = (originName: string, patch: Partial<DraftColumn>) =>
    setColumns((cols) => cols.map((c) => (c.originName === originName ? { ...c, ...patch } : c)));

  const canSave = !!name.trim() && (origin === 'excel' ? !!file : columns.some((c) => c.checked));

  const save = async () => {
    setSaving(true);
    try {
      let created: Dataset;
      if (origin === 'excel') {
        created = await dataApi.importExcel(file!, name.trim(), headerRow);
      } else {
        created = await dataApi.saveDataset({
          name: name.trim(),
          datasourceId: sourceId === PLATFORM ? null : sourceId,
          kind: origin,
          tableName: origin === 'table' ? tableName : undefined,
          sql: origin === 'sql' ? sql : undefined,
          mode,
          syncInterval: mode === 'extract' ? syncInterval : 0,
          fields: fieldsForSave(columns),
        });
      }
      message.success(t('common.saved'));
      onCreated(created);
    } catch {
      // the request client shows the server's message
    } finally {
      setSaving(false);
    }
  };

  const beforeUpload = (f: File) => {
    if (!isExcelFile(f.name)) {
      message.warning(t('dataset.excelOnly'));
      return Upload.LIST_IGNORE;
    }
    setFile(f);
    if (!name) setName(suggestedName(f.name));
    return false;
  };
  const fileList: UploadFile[] = file ? [{ uid: 'excel', name: file.name, status: 'done' }] : [];

  const sourceOptions = useMemo(
    () => [{ value: PLATFORM, label: t('dataset.platform') }, ...sources.map((s) => ({ value: s.id, label: s.name }))],
    [sources, t],
  );

  const columnTable = (
    <Table<DraftColumn>
      data-testid="draft-columns"
      size="small"
      rowKey="originName"
      pagination={false}
      dataSource={columns}
      scroll={{ x: 'max-content', y: 300 }}
      columns={[
        {
          title: t('field.checked'),
          key: 'checked',
          width: 64,
          render: (_, c) => <Checkbox checked={c.checked} data-testid={`draft-check-${c.originName}`} onChange={(e) => editColumn(c.originName, { checked: e.target.checked })} />,
        },
        { title: t('field.originName'), dataIndex: 'originName', ellipsis: true },
        { title: t('field.name'), key: 'name', render: (_, c) => <Input size="small" value={c.name} maxLength={100} onChange={(e) => editColumn(c.originName, { name: e.target.value })} style={{ minWidth: 120 }} /> },
        { title: t('field.type'), key: 'type', render: (_, c) => <TypeSelect value={c.type} onChange={(type) => editColumn(c.originName, { type })} /> },
        { title: t('field.role'), key: 'role', render: (_, c) => <RoleSelect value={c.role} onChange={(role) => editColumn(c.originName, { role })} /> },
      ]}
    />
  );

  return (
    <div data-testid="dataset-creator">
      <Form layout="vertical">
        <Form.Item label={t('dataset.origin')}>
          <Radio.Group
            value={origin}
            optionType="button"
            data-testid="dataset-origin"
            onChange={(e) => {
              setOrigin(e.target.value);
              resetDraft();
            }}
            options={(['table', 'sql', 'excel'] as const).map((v) => ({ value: v, label: t(`dataset.kinds.${v}`) }))}
          />
        </Form.Item>
        {origin !== 'excel' && (
          <Form.Item label={t('dataset.source')}>
            <Select value={sourceId} onChange={setSourceId} options={sourceOptions} data-testid="dataset-source" style={{ maxWidth: 360 }} />
          </Form.Item>
        )}
        {origin === 'table' && (
          <Form.Item label={t('dataset.table')}>
            <Select
              showSearch
              value={tableName}
              onChange={pickTable}
              placeholder={t('dataset.tablePick')}
              data-testid="dataset-table"
              style={{ maxWidth: 360 }}
              options={tables.map((v) => ({ value: v, label: v }))}
              notFoundContent={t('dataset.noTables')}
            />
          </Form.Item>
        )}
        {origin === 'sql' && (
          <Form.Item label={t('dataset.sql')} extra={t('dataset.sqlHint')}>
            <Input.TextArea
              data-testid="dataset-sql"
              value={sql}
              onChange={(e) => setSql(e.target.value)}
              autoSize={{ minRows: 5, maxRows: 14 }}
              spellCheck={false}
              style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 }}
              placeholder="SELECT region, SUM(amount) AS amount FROM sales GROUP BY region"
            />
            <Button style={{ marginTop: 8 }} data-testid="dataset-run-sql" disabled={!sql.trim()} loading={previewing} onClick={() => void runPreview({ kind: 'sql', sql })}>
              {t('dataset.runSql')}
            </Button>
          </Form.Item>
        )}
        {origin === 'excel' && (
          <Space wrap align="start" size={24}>
            <Form.Item label={t('dataset.excelFile')} extra={t('dataset.excelHint')}>
              <Upload accept=".xls,.xlsx" maxCount={1} beforeUpload={beforeUpload} fileList={fileList} onRemove={() => setFile(null)}>
                <Button data-testid="dataset-excel">{t('dataset.excelPick')}</Button>
              </Upload>
            </Form.Item>
            <Form.Item label={t('dataset.headerRow')}>
              <InputNumber min={1} max={50} precision={0} value={headerRow} onChange={(v) => setHeaderRow(v ?? 1)} data-testid="dataset-header-row" />
            </Form.Item>
          </Space>
        )}
        <Form.Item label={t('dataset.name')} required>
          <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} data-testid="dataset-name" style={{ maxWidth: 360 }} />
        </Form.Item>
        {origin !== 'excel' && <ModeFields mode={mode} syncInterval={syncInterval} onMode={setMode} onInterval={setSyncInterval} />}
      </Form>
      {previewError && <Alert type="error" showIcon data-testid="draft-error" message={t('dataset.previewFailed')} description={previewError} style={{ marginBottom: 12 }} />}
      {origin !== 'excel' && columns.length > 0 && (
        <>
          <h4 style={{ margin: '8px 0' }}>{t('dataset.columns')}</h4>
          {columnTable}
          <h4 style={{ margin: '16px 0 8px' }}>{t('dataset.preview')}</h4>
          <PreviewTable loading={previewing} columns={columns.filter((c) => c.checked).map((c) => ({ key: c.originName, title: c.name || c.originName, type: c.type }))} rows={rows} />
        </>
      )}
      <div style={{ marginTop: 16 }}>
        <Button type="primary" disabled={!canSave} loading={saving} onClick={() => void save()} data-testid="dataset-create">
          {origin === 'excel' ? t('dataset.import') : t('dataset.create')}
        </Button>
      </div>
    </div>
  );
}
