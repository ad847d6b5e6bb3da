/** A saved dataset: fields, calculated fields, preview of the first rows, mode and sync, row permissions; delete. */
import { useSession } from '@atrium/sdk';
import { App, Button, Popconfirm, Space, Tabs, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { dataApi } from './api';
import { CalcFields } from './CalcFields';
import { FieldList } from './FieldList';
import { useDT } from './i18n';
import { PreviewTable } from './PreviewTable';
import { RowPermissions } from './RowPermissions';
import { SyncPanel } from './SyncPanel';
import type { DataSource, Dataset, DatasetField, Row } from './types';

const isTruthy = (v: unknown) => v === true || v === 1 || v === '1';

export function DatasetEditor({ datasetId, sources, onChanged, onDeleted }: { datasetId: string; sources: DataSource[]; onChanged: (d: Dataset) => void; onDeleted: () => void }) {
  const { t } = useDT();
  const { profile } = useSession();
  const isAdmin = isTruthy(profile.isAdmin) || isTruthy(profile.isSuperAdmin);
  const { message } = App.useApp();
  const [dataset, setDataset] = useState<Dataset | null>(null);
  const [tab, setTab] = useState('preview');
  const [preview, setPreview] = useState<{ fields: DatasetField[]; rows: Row[] } | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);

  const load = useCallback(() => {
    dataApi.dataset(datasetId).then(setDataset).catch(() => setDataset(null));
  }, [datasetId]);
  useEffect(load, [load]);

  const loadPreview = useCallback(() => {
    setPreviewing(true);
    setPreviewError(null);
    dataApi
      .preview(datasetId)
      .then(setPreview)
      .catch((e: Error) => {
        setPreview(null);
        setPreviewError(e.message);
      })
      .finally(() => setPreviewing(false));
  }, [datasetId]);
  const version = dataset?.version;
  const loaded = !!dataset;
  useEffect(() => {
    if (loaded) loadPreview();
  }, [loadPreview, loaded, version]);

  const updated = (d: Dataset) => {
    setDataset(d);
    onChanged(d);
    // a rename keeps the version: ask again for the headers
    loadPreview();
  };

  const remove = async () => {
    try {
      await dataApi.deleteDataset(datasetId);
      message.success(t('common.deleted'));
      onDeleted();
    } catch {
      // shown by the request client
    }
  };

  if (!dataset) return null;
  const sourceName = dataset.datasourceId ? sources.find((s) => s.id === dataset.datasourceId)?.name || dataset.datasourceId : t('dataset.platform');
  const columns = (preview?.fields || []).map((f) => ({ key: f.dataeaseName, title: f.name, type: f.type }));

  return (
    <div data-testid="dataset-editor" data-dataset-id={dataset.id}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0, flex: '1 1 auto', minWidth: 0 }} ellipsis data-testid="dataset-title">
          {dataset.name}
        </Typography.Title>
        <Space size={4} wrap>
          <Tag>{t(`dataset.kinds.${dataset.kind}`)}</Tag>
          <Tag>{t(`dataset.modes.${dataset.mode}`)}</Tag>
          <Tag bordered={false}>{dataset.kind === 'table' && dataset.tableName ? `${sourceName} · ${dataset.tableName}` : sourceName}</Tag>
          <Popconfirm title={t('dataset.deleteConfirm', { name: dataset.name })} okText={t('common.delete')} cancelText={t('common.cancel')} onConfirm={remove}>
            <Button size="small" danger data-testid="dataset-delete">
              {t('common.delete')}
            </Button>
          </Popconfirm>
        </Space>
      </div>
      {dataset.kind === 'sql' && dataset.sql && (
        <Typography.Paragraph code ellipsis={{ rows: 2, expandable: true }} style={{ fontSize: 12 }}>
          {dataset.sql}
        </Typography.Paragraph>
      )}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'preview',
            label: <span data-testid="tab-preview">{t('dataset.preview')}</span>,
            children: previewError ? <Typography.Text type="danger" data-testid="preview-error">{previewError}</Typography.Text> : <PreviewTable loading={previewing} columns={columns} rows={preview?.rows || []} />,
          },
          { key: 'fields', label: <span data-testid="tab-fields">{t('dataset.fields')}</span>, children: <FieldList dataset={dataset} onSaved={updated} /> },
          { key: 'calc', label: <span data-testid="tab-calc">{t('dataset.calcFields')}</span>, children: <CalcFields
                dataset={dataset}
                onChanged={() => {
                  load();
                  loadPreview();
                }}
              /> },
          { key: 'sync', label: <span data-testid="tab-sync">{t('dataset.modeAndSync')}</span>, children: <SyncPanel dataset={dataset} onSaved={updated} /> },
          ...(isAdmin ? [{ key: 'rowperm', label: <span data-testid="tab-rowperm">{t('rowPermissions.tab')}</span>, children: <RowPermissions dataset={dataset} /> }] : []),
        ]}
      />
    </div>
  );
}
