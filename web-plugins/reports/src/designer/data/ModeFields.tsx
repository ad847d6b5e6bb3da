/** Direct or extract mode, with the extract's sync interval in minutes (0 = manual). */
import { Form, InputNumber, Radio, Space } from 'antd';
import { useDT } from './i18n';
import type { DatasetMode } from './types';

export function ModeFields(props: { mode: DatasetMode; syncInterval: number; onMode: (m: DatasetMode) => void; onInterval: (n: number) => void }) {
  const { t } = useDT();
  return (
    <Space wrap size={24} align="start">
      <Form.Item label={t('dataset.mode')} extra={t(`dataset.modeHint.${props.mode}`)} style={{ maxWidth: 360 }}>
        <Radio.Group value={props.mode} onChange={(e) => props.onMode(e.target.value)} data-testid="dataset-mode" options={(['direct', 'extract'] as const).map((v) => ({ value: v, label: t(`dataset.modes.${v}`) }))} />
      </Form.Item>
      {props.mode === 'extract' && (
        <Form.Item label={t('dataset.syncInterval')} extra={t('dataset.syncIntervalHint')}>
          <InputNumber min={0} max={44640} precision={0} value={props.syncInterval} onChange={(v) => props.onInterval(v ?? 0)} addonAfter={t('common.minutes')} data-testid="dataset-sync-interval" />
        </Form.Item>
      )}
    </Space>
  );
}
