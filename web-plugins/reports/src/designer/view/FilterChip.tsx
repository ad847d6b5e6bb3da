/** A static filter of the view: the field, an operator and its values. */
import { Button, Form, Popover, Select, Tooltip } from 'antd';
import { useState } from 'react';
import type { FilterItem } from '../../model/types';
import { useDT } from '../data/i18n';
import { FILTER_OPERATORS, type PaletteField } from './model';

export function FilterChip({ index, filter, field, onChange, onRemove }: { index: number; filter: FilterItem; field?: PaletteField; onChange: (patch: Partial<FilterItem>) => void; onRemove: () => void }) {
  const { t } = useDT();
  const [open, setOpen] = useState(false);
  const values = (filter.value || []).map(String);
  const summary = values.length ? `${t(`view.operators.${filter.operator}`)} ${values.join(', ')}` : t('view.filterEmpty');
  const broken = !field;
  const chip = (
    <span
      data-testid={`chip-customFilter-${index}`}
      data-field-id={filter.fieldId}
      data-broken={broken ? 'true' : undefined}
      style={{
        display: 'inline-flex',
        maxWidth: '100%',
        padding: '2px 8px',
        borderRadius: 12,
        fontSize: 12,
        lineHeight: '20px',
        cursor: 'pointer',
        background: broken ? '#fff2f0' : '#fffbe6',
        border: `1px ${broken ? 'dashed #ff7875' : 'solid #ffe58f'}`,
        color: broken ? '#cf1322' : undefined,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
      }}
    >
      {broken ? `⚠ ${filter.fieldId}` : `${field.name}: ${summary}`}
    </span>
  );
  if (broken) {
    return (
      <span style={{ display: 'inline-flex', alignItems: 'center' }}>
        <Tooltip title={t('view.brokenField')}>{chip}</Tooltip>
        <Button size="small" type="text" danger onClick={onRemove} aria-label={t('view.remove')}>
          ×
        </Button>
      </span>
    );
  }
  const numeric = field.type === 'integer' || field.type === 'float';
  const content = (
    <Form layout="vertical" size="small" style={{ width: 260 }} data-testid={`chip-menu-customFilter-${index}`}>
      <Form.Item label={t('view.operator')} style={{ marginBottom: 8 }}>
        <Select value={filter.operator} onChange={(operator) => onChange({ operator })} options={FILTER_OPERATORS.map((o) => ({ value: o, label: t(`view.operators.${o}`) }))} data-testid="filter-operator" />
      </Form.Item>
      <Form.Item label={t('view.filterValues')} extra={field.type === 'time' ? t('view.filterDateHint') : undefined} style={{ marginBottom: 8 }}>
        <Select
          mode="tags"
          value={values}
          tokenSeparators={[',']}
          open={false}
          suffixIcon={null}
          onChange={(v: string[]) => onChange({ value: numeric ? v.map(Number).filter((n) => Number.isFinite(n)) : v })}
          data-testid="filter-values"
        />
      </Form.Item>
      <Button
        danger
        block
        onClick={() => {
          setOpen(false);
          onRemove();
        }}
      >
        {t('view.remove')}
      </Button>
    </Form>
  );
  return (
    <Popover trigger="click" open={open} onOpenChange={setOpen} content={content} title={field.name} placement="bottomLeft" destroyOnHidden>
      {chip}
    </Popover>
  );
}
