/** Datasets (administrators): the list on the left, the selected dataset (`?id=`) or a new one on the right. */
import { Button, Card, Empty, Input, List, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { dataApi } from './api';
import { DatasetCreator } from './DatasetCreator';
import { DatasetEditor } from './DatasetEditor';
import { useDT } from './i18n';
import type { DataSource, Dataset } from './types';
import { useIsPhone } from './useIsPhone';

const NEW = 'new';

export default function DatasetPage() {
  const { t } = useDT();
  const phone = useIsPhone();
  const [params, setParams] = useSearchParams();
  const selected = params.get('id');
  const [datasets, setDatasets] = useState<Dataset[]>([]);
  const [sources, setSources] = useState<DataSource[]>([]);
  const [search, setSearch] = useState('');
  const [loading, setLoading] = useState(true);

  const load = useCallback(() => {
    setLoading(true);
    dataApi
      .datasets()
      .then((list) => setDatasets(list || []))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, []);
  useEffect(load, [load]);
  useEffect(() => {
    dataApi.sources().then((list) => setSources(list || [])).catch(() => undefined);
  }, []);

  const select = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(params);
      if (id) next.set('id', id);
      else next.delete('id');
      setParams(next);
    },
    [params, setParams],
  );

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q ? datasets.filter((d) => `${d.name} ${d.tableName || ''}`.toLowerCase().includes(q)) : datasets;
  }, [datasets, search]);

  const list = (
    <Card
      size="small"
      title={t('dataset.title')}
      extra={
        <Button type="primary" size="small" onClick={() => select(NEW)} data-testid="dataset-new">
          {t('dataset.new')}
        </Button>
      }
      style={{ width: phone ? '100%' : 300, flex: 'none' }}
      styles={{ body: { padding: 8 } }}
    >
      <Input.Search allowClear placeholder={t('dataset.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 8 }} data-testid="dataset-search" />
      <List<Dataset>
        loading={loading}
        dataSource={shown}
        locale={{ emptyText: t('dataset.empty') }}
        style={{ maxHeight: phone ? 260 : 'calc(100vh - 260px)', overflow: 'auto' }}
        renderItem={(d) => (
          <List.Item
            key={d.id}
            onClick={() => select(d.id)}
            data-testid={`dataset-item-${d.name}`}
            style={{ cursor: 'pointer', padding: '6px 8px', borderRadius: 6, background: d.id === selected ? '#e6f4ff' : undefined }}
          >
            <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
              {d.name}
            </Typography.Text>
            <Tag bordered={false} style={{ marginInlineEnd: 0 }}>
              {t(`dataset.kinds.${d.kind}`)}
            </Tag>
          </List.Item>
        )}
      />
    </Card>
  );

  return (
    <div data-testid="dataset-page" style={{ display: 'flex', flexDirection: phone ? 'column' : 'row', gap: 12, alignItems: 'stretch' }}>
      {list}
      <Card size="small" style={{ flex: 1, minWidth: 0 }} title={selected === NEW ? t('dataset.new') : undefined}>
        {selected === NEW ? (
          <DatasetCreator
            sources={sources}
            onCreated={(d) => {
              load();
              select(d.id);
            }}
          />
        ) : selected ? (
          <DatasetEditor
            key={selected}
            datasetId={selected}
            sources={sources}
            onChanged={load}
            onDeleted={() => {
              load();
              select(null);
            }}
          />
        ) : (
          <Empty description={t('dataset.pick')} style={{ padding: 48 }} />
        )}
      </Card>
    </div>
  );
}
