/** An axis item in a zone: draggable to another zone, with a menu for aggregation, sort, date style, format, name, remove. */
import { useDraggable } from '@dnd-kit/core';
import { Button, Form, Input, InputNumber, Popover, Select, Tooltip } from 'antd';
import { useState, type CSSProperties } from 'react';
import { useDT } from '../data/i18n';
import type { DragData } from './dnd';
import { DATE_STYLES, SORTS, SUMMARIES, isQuotaZone, type AxisZone, type EditorAxis, type PaletteField } from './model';

export interface AxisChipProps {
  zone: AxisZone;
  index: number;
  axis: EditorAxis;
  /** Undefined when the dataset no longer has the field. */
  field?: PaletteField;
  onChange: (patch: Partial<EditorAxis>) => void;
  onRemove: () => void;
}

export function AxisChip({ zone, index, axis, field, onChange, onRemove }: AxisChipProps) {
  const { t } = useDT();
  const [open, setOpen] = useState(false);
  const data: DragData = { kind: 'chip', zone, index };
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `chip:${zone}:${index}`, data, disabled: !field });
  const quota = isQuotaZone(zone);
  const broken = !field;
  const label = axis.name || field?.name || axis.id;
  const suffix = quota && axis.summary && axis.id !== 'count' ? ` · ${t(`view.summary.${axis.summary}`)}` : '';
  const style: CSSProperties = {
    display: 'inline-flex',
    alignItems: 'center',
    maxWidth: '100%',
    gap: 4,
    padding: '2px 8px',
    borderRadius: 12,
    fontSize: 12,
    lineHeight: '20px',
    cursor: broken ? 'default' : 'grab',
    touchAction: 'none',
    userSelect: 'none',
    background: broken ? '#fff2f0' : quota ? '#f6ffed' : '#e6f4ff',
    border: `1px ${broken ? 'dashed #ff7875' : `solid ${quota ? '#b7eb8f' : '#91caff'}`}`,
    color: broken ? '#cf1322' : undefined,
    opacity: isDragging ? 0.5 : 1,
  };

  const chip = (
    <span
      ref={setNodeRef}
      {...listeners}
      {...attributes}
      style={style}
      data-testid={`chip-${zone}-${index}`}
      data-field-id={axis.id}
      data-broken={broken ? 'true' : undefined}
    >
      {broken && <span aria-hidden>⚠</span>}
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {label}
        {suffix}
      </span>
      {axis.sort && axis.sort !== 'none' && <span aria-hidden>{axis.sort === 'asc' ? '↑' : '↓'}</span>}
    </span>
  );

  if (broken) {
    return (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 2 }}>
        <Tooltip title={t('view.brokenField')}>{chip}</Tooltip>
        <Button size="small" type="text" danger onClick={onRemove} data-testid={`chip-remove-${zone}-${index}`} aria-label={t('view.remove')}>
          ×
        </Button>
      </span>
    );
  }

  const settings = (
    <Form layout="vertical" size="small" style={{ width: 240 }} data-testid={`chip-menu-${zone}-${index}`}>
      {quota && (
        <Form.Item label={t('view.aggregation')} style={{ marginBottom: 8 }}>
          <Select
            value={axis.summary}
            onChange={(summary) => onChange({ summary })}
            data-testid="chip-summary"
            disabled={axis.id === 'count'}
            options={SUMMARIES.filter((s) => field?.type === 'integer' || field?.type === 'float' || ['count', 'count_distinct', 'max', 'min'].includes(s)).map((s) => ({ value: s, label: t(`view.summary.${s}`) }))}
          />
        </Form.Item>
      )}
      <Form.Item label={t('view.sort')} style={{ marginBottom: 8 }}>
        <Select value={axis.sort || 'none'} onChange={(sort) => onChange({ sort })} data-testid="chip-sort" options={SORTS.map((s) => ({ value: s, label: t(`view.sorts.${s}`) }))} />
      </Form.Item>
      {!quota && field?.type === 'time' && (
        <Form.Item label={t('view.dateStyle')} style={{ marginBottom: 8 }}>
          <Select value={axis.dateStyle || 'y_M_d'} onChange={(dateStyle) => onChange({ dateStyle })} data-testid="chip-date-style" options={DATE_STYLES.map((s) => ({ value: s, label: t(`view.dateStyles.${s}`) }))} />
        </Form.Item>
      )}
      {quota && (
        <Form.Item label={t('view.valueFormat')} style={{ marginBottom: 8 }}>
          <div style={{ display: 'flex', gap: 6 }}>
            <Select
              style={{ flex: 1 }}
              value={axis.valueFormat?.formatType || 'auto'}
              data-testid="chip-format"
              onChange={(formatType) => onChange({ valueFormat: formatType === 'auto' ? undefined : { formatType, decimalNumber: axis.valueFormat?.decimalNumber ?? 2 } })}
              options={['auto', 'number', 'percent'].map((s) => ({ value: s, label: t(`view.formats.${s}`) }))}
            />
            <InputNumber
              min={0}
              max={10}
              precision={0}
              style={{ width: 72 }}
              disabled={!axis.valueFormat?.formatType}
              value={axis.valueFormat?.decimalNumber ?? 2}
              onChange={(n) => axis.valueFormat && onChange({ valueFormat: { ...axis.valueFormat, decimalNumber: n ?? 0 } })}
              aria-label={t('view.decimals')}
              data-testid="chip-decimals"
            />
          </div>
        </Form.Item>
      )}
      <Form.Item label={t('view.shownName')} style={{ marginBottom: 8 }}>
        <Input value={axis.name || ''} placeholder={field?.name} maxLength={100} onChange={(e) => onChange({ name: e.target.value || undefined })} data-testid="chip-name" />
      </Form.Item>
      <Button
        danger
        block
        onClick={() => {
          setOpen(false);
          onRemove();
        }}
        data-testid="chip-remove"
      >
        {t('view.remove')}
      </Button>
    </Form>
  );

  return (
    <Popover trigger="click" open={open} onOpenChange={setOpen} content={settings} title={field?.name} placement="bottomLeft" destroyOnHidden>
      {chip}
    </Popover>
  );
}
