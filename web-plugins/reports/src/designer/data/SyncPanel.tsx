/** Mode and sync of a saved dataset: direct or extract, interval, "sync now", and the status polled while running. */
import { App, Button, Descriptions, Form, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { dataApi } from './api';
import { isSyncRunning } from './datasetForm';
import { useDT } from './i18n';
import { ModeFields } from './ModeFields';
import type { Dataset, DatasetMode, SyncState, SyncStatus } from './types';

const POLL_MS = 2000;
const STATUS_COLORS: Record<SyncStatus, string> = { never: 'default', running: 'processing', ok: 'success', error: 'error' };

export function SyncPanel({ dataset, onSaved }: { dataset: Dataset; onSaved: (d: Dataset) => void }) {
  const { t, locale } = useDT();
  const { message } = App.useApp();
  const [mode, setMode] = useState<DatasetMode>(dataset.mode);
  const [syncInterval, setSyncInterval] = useState(dataset.syncInterval || 0);
  const [sync, setSync] = useState<SyncState | undefined>(dataset.sync);
  const [saving, setSaving] = useState(false);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    setMode(dataset.mode);
    setSyncInterval(dataset.syncInterval || 0);
    setSync(dataset.sync);
  }, [dataset]);

  const running = isSyncRunning(sync);
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => {
      dataApi.syncStatus(dataset.id).then(setSync).catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, dataset.id]);

  const changed = mode !== dataset.mode || (mode === 'extract' && syncInterval !== (dataset.syncInterval || 0));

  const save = async () => {
    setSaving(true);
    try {
      const saved = await dataApi.saveDataset({
        id: dataset.id,
        name: dataset.name,
        datasourceId: dataset.datasourceId ?? null,
        kind: dataset.kind,
        tableName: dataset.tableName || undefined,
        sql: dataset.sql || undefined,
        mode,
        syncInterval: mode === 'extract' ? syncInterval : 0,
      });
      message.success(t('common.saved'));
      onSaved(saved);
    } catch {
      // shown by the request client
    } finally {
      setSaving(false);
    }
  };

  const syncNow = async () => {
    setStarting(true);
    try {
      setSync(await dataApi.sync(dataset.id));
    } catch {
      // shown by the request client (e.g. a sync already running)
    } finally {
      setStarting(false);
    }
  };

  const status = sync?.status || 'never';
  return (
    <div data-testid="dataset-sync">
      <Form layout="vertical">
        <ModeFields mode={mode} syncInterval={syncInterval} onMode={setMode} onInterval={setSyncInterval} />
      </Form>
      <Button type="primary" disabled={!changed} loading={saving} onClick={() => void save()} data-testid="mode-save">
        {t('common.save')}
      </Button>
      {dataset.mode === 'extract' && (
        <div style={{ marginTop: 24 }}>
          <Descriptions size="small" column={1} bordered style={{ maxWidth: 560 }}>
            <Descriptions.Item label={t('sync.status')}>
              <Tag color={STATUS_COLORS[status]} data-testid="sync-status" data-status={status}>
                {t(`sync.statuses.${status}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('sync.lastSync')}>{sync?.lastSyncTime ? new Date(sync.lastSyncTime).toLocaleString(locale) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('sync.rows')}>{sync?.rows !== undefined && sync?.rows !== null ? sync.rows.toLocaleString(locale) : '-'}</Descriptions.Item>
            {status === 'error' && sync?.error && <Descriptions.Item label={t('sync.error')}>{sync.error}</Descriptions.Item>}
          </Descriptions>
          <Button style={{ marginTop: 12 }} loading={starting || running} onClick={() => void syncNow()} data-testid="sync-now">
            {running ? t('sync.running') : t('sync.now')}
          </Button>
        </div>
      )}
    </div>
  );
}
