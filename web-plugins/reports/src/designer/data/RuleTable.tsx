/** The rules of a dataset's row permissions: a table on wide screens, cards on phones. */
import { Button, Space, Table, Tag, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useDT } from './i18n';
import type { RowRule } from './rowPermissions';

const SHOWN_VALUES = 12;

export interface RuleListProps {
  rules: RowRule[];
  subjectText: (rule: RowRule) => string;
  fieldName: (rule: RowRule) => string | undefined;
  onEdit: (index: number) => void;
  onDelete: (index: number) => void;
}

function Subject({ rule, text }: { rule: RowRule; text: string }) {
  const { t } = useDT();
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <Tag bordered={false}>{t(`rowPermissions.${rule.subjectType}`)}</Tag>
      {text}
    </span>
  );
}

function FieldName({ name }: { name: string | undefined }) {
  const { t } = useDT();
  return name ? <>{name}</> : <Typography.Text type="danger">{t('rowPermissions.missingField')}</Typography.Text>;
}

function Values({ values }: { values: RowRule['value'] }) {
  const { t } = useDT();
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, maxWidth: 360 }}>
      {values.slice(0, SHOWN_VALUES).map((v, i) => <Tag key={i} style={{ marginInlineEnd: 0 }}>{String(v)}</Tag>)}
      {values.length > SHOWN_VALUES && <Tag style={{ marginInlineEnd: 0 }}>{t('rowPermissions.more', { n: values.length - SHOWN_VALUES })}</Tag>}
    </div>
  );
}

function Actions({ index, onEdit, onDelete }: { index: number; onEdit: (i: number) => void; onDelete: (i: number) => void }) {
  const { t } = useDT();
  return (
    <Space size={0}>
      <Button size="small" type="link" data-testid={`rowperm-edit-${index}`} onClick={() => onEdit(index)}>{t('rowPermissions.edit')}</Button>
      <Button size="small" type="link" danger data-testid={`rowperm-delete-${index}`} onClick={() => onDelete(index)}>{t('common.delete')}</Button>
    </Space>
  );
}

export function RuleTable({ rules, subjectText, fieldName, onEdit, onDelete }: RuleListProps) {
  const { t } = useDT();
  return (
    <Table<RowRule>
      size="small"
      rowKey={(r) => String(rules.indexOf(r))}
      pagination={rules.length > 20 ? { pageSize: 20, size: 'small' } : false}
      dataSource={rules}
      locale={{ emptyText: t('rowPermissions.empty') }}
      scroll={{ x: 'max-content' }}
      data-testid="rowperm-table"
      onRow={() => ({ 'data-testid': 'rowperm-rule' }) as HTMLAttributes<HTMLElement>}
      columns={[
        { title: t('rowPermissions.subject'), key: 'subject', render: (_, r) => <Subject rule={r} text={subjectText(r)} /> },
        { title: t('rowPermissions.field'), key: 'field', render: (_, r) => <FieldName name={fieldName(r)} /> },
        { title: t('rowPermissions.operator'), key: 'operator', render: (_, r) => t(`rowPermissions.operators.${r.operator}`) },
        { title: t('rowPermissions.values'), key: 'values', render: (_, r) => <Values values={r.value} /> },
        { title: t('rowPermissions.actions'), key: 'actions', render: (_, r) => <Actions index={rules.indexOf(r)} onEdit={onEdit} onDelete={onDelete} /> },
      ]}
    />
  );
}

export function RuleCards({ rules, subjectText, fieldName, onEdit, onDelete }: RuleListProps) {
  const { t } = useDT();
  if (!rules.length) return <Typography.Paragraph type="secondary" data-testid="rowperm-table">{t('rowPermissions.empty')}</Typography.Paragraph>;
  return (
    <div data-testid="rowperm-table" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {rules.map((r, index) => (
        <div key={index} data-testid="rowperm-rule" style={{ border: '1px solid #eef0f4', borderRadius: 8, padding: '8px 10px' }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
            <div style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>
              <Subject rule={r} text={subjectText(r)} />
            </div>
            <Actions index={index} onEdit={onEdit} onDelete={onDelete} />
          </div>
          <div style={{ margin: '6px 0 4px', color: '#4e5969' }}>
            <FieldName name={fieldName(r)} /> · {t(`rowPermissions.operators.${r.operator}`)}
          </div>
          <Values values={r.value} />
        </div>
      ))}
    </div>
  );
}
