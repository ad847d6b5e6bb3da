/** The fields of a saved dataset: rename, type, role and ticked, saved together. */
import { App, Button, Checkbox, Input, Table, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { dataApi } from './api';
import { fieldPatches } from './datasetForm';
import { RoleSelect, TypeSelect } from './FieldSelects';
import { useDT } from './i18n';
import type { Dataset, DatasetField } from './types';

export function FieldList({ dataset, onSaved }: { dataset: Dataset; onSaved: (d: Dataset) => void }) {
  const { t } = useDT();
  const { message } = App.useApp();
  const stored = useMemo(() => (dataset.fields || []).filter((f) => !f.calculated), [dataset]);
  const [fields, setFields] = useState<DatasetField[]>(stored);
  const [saving, setSaving] = useState(false);
  useEffect(() => setFields(stored), [stored]);

  const edit = (id: string, patch: Partial<DatasetField>) => setFields((list) => list.map((f) => (f.id === id ? { ...f, ...patch } : f)));
  const patches = fieldPatches(stored, fields);

  const save = async () => {
    setSaving(true);
    try {
      onSaved(await dataApi.saveFields(dataset.id, patches));
      message.success(t('common.saved'));
    } catch {
      // shown by the request client
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid="dataset-fields">
      <Table<DatasetField>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={fields}
        scroll={{ x: 'max-content', y: 420 }}
        columns={[
          { title: t('field.checked'), key: 'checked', width: 64, render: (_, f) => <Checkbox checked={f.checked ?? true} onChange={(e) => edit(f.id, { checked: e.target.checked })} /> },
          { title: t('field.originName'), dataIndex: 'originName', ellipsis: true, render: (v: string) => <Tag bordered={false}>{v}</Tag> },
          { title: t('field.name'), key: 'name', render: (_, f) => <Input size="small" value={f.name} maxLength={100} data-testid={`field-name-${f.originName}`} onChange={(e) => edit(f.id, { name: e.target.value })} style={{ minWidth: 140 }} /> },
          { title: t('field.type'), key: 'type', render: (_, f) => <TypeSelect value={f.type} onChange={(type) => edit(f.id, { type })} testId={`field-type-${f.originName}`} /> },
          { title: t('field.role'), key: 'role', render: (_, f) => <RoleSelect value={f.role} onChange={(role) => edit(f.id, { role })} testId={`field-role-${f.originName}`} /> },
        ]}
      />
      <div style={{ marginTop: 12 }}>
        <Button type="primary" disabled={!patches.length} loading={saving} onClick={() => void save()} data-testid="fields-save">
          {t('field.save')}
        </Button>
      </div>
    </div>
  );
}
