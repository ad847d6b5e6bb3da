/** Calculated fields of a dataset: name, expression, type and role; a refused expression shows the server's reason. */
import { Alert, App, Button, Form, Input, Popconfirm, Space, Table } from 'antd';
import { useState } from 'react';
import { dataApi } from './api';
import { RoleSelect, TypeSelect } from './FieldSelects';
import { useDT } from './i18n';
import type { CalcFieldBody, Dataset, DatasetField, FieldRole, FieldType } from './types';

const EMPTY: CalcFieldBody = { name: '', expression: '', type: 'float', role: 'quota' };

export function CalcFields({ dataset, onChanged }: { dataset: Dataset; onChanged: () => void }) {
  const { t } = useDT();
  const { message } = App.useApp();
  const calculated = (dataset.fields || []).filter((f) => f.calculated);
  const [draft, setDraft] = useState<CalcFieldBody>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const set = (patch: Partial<CalcFieldBody>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setError(null);
  };

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await dataApi.saveCalcField(dataset.id, { ...draft, name: draft.name.trim(), expression: draft.expression.trim() });
      message.success(t('common.saved'));
      setDraft(EMPTY);
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (f: DatasetField) => {
    try {
      await dataApi.deleteCalcField(dataset.id, f.id);
      onChanged();
    } catch {
      // shown by the request client
    }
  };

  return (
    <div data-testid="calc-fields">
      <Table<DatasetField>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={calculated}
        locale={{ emptyText: t('calc.empty') }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('field.name'), dataIndex: 'name' },
          { title: t('calc.expression'), dataIndex: 'expression', render: (v: string) => <code>{v}</code> },
          { title: t('field.type'), dataIndex: 'type', render: (v: FieldType) => t(`field.types.${v}`) },
          { title: t('field.role'), dataIndex: 'role', render: (v: FieldRole) => t(`field.roles.${v}`) },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, f) => (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => setDraft({ id: f.id, name: f.name, expression: f.expression || '', type: f.type, role: f.role })}>
                  {t('common.edit')}
                </Button>
                <Popconfirm title={t('calc.deleteConfirm', { name: f.name })} okText={t('common.delete')} cancelText={t('common.cancel')} onConfirm={() => remove(f)}>
                  <Button size="small" type="link" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Form layout="vertical" style={{ marginTop: 16, maxWidth: 640 }}>
        <h4 style={{ margin: '0 0 8px' }}>{draft.id ? t('calc.editTitle') : t('calc.newTitle')}</h4>
        <Form.Item label={t('field.name')} required>
          <Input value={draft.name} maxLength={100} onChange={(e) => set({ name: e.target.value })} data-testid="calc-name" />
        </Form.Item>
        <Form.Item label={t('calc.expression')} required extra={t('calc.hint')}>
          <Input.TextArea
            value={draft.expression}
            onChange={(e) => set({ expression: e.target.value })}
            autoSize={{ minRows: 2, maxRows: 6 }}
            spellCheck={false}
            style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
            data-testid="calc-expression"
            placeholder="amount - profit"
          />
        </Form.Item>
        <Space wrap>
          <Form.Item label={t('field.type')}>
            <TypeSelect value={draft.type || 'float'} onChange={(type) => set({ type })} testId="calc-type" />
          </Form.Item>
          <Form.Item label={t('field.role')}>
            <RoleSelect value={draft.role || 'quota'} onChange={(role) => set({ role })} testId="calc-role" />
          </Form.Item>
        </Space>
        {error && <Alert type="error" showIcon data-testid="calc-error" message={t('calc.refused')} description={error} style={{ marginBottom: 12 }} />}
        <Space>
          <Button type="primary" loading={saving} disabled={!draft.name.trim() || !draft.expression.trim()} onClick={() => void save()} data-testid="calc-save">
            {draft.id ? t('common.save') : t('calc.add')}
          </Button>
          {draft.id && <Button onClick={() => setDraft(EMPTY)}>{t('common.cancel')}</Button>}
        </Space>
      </Form>
    </div>
  );
}
