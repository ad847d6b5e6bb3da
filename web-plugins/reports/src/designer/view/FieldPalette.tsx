/** The dataset's dimensions and quotas (plus the record count), each draggable into a zone. */
import { useDraggable } from '@dnd-kit/core';
import { Empty, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useDT } from '../data/i18n';
import type { DragData } from './dnd';
import type { PaletteField } from './model';

const TYPE_MARKS: Record<string, string> = { text: 'Aa', time: 'dt', integer: '#', float: '#.#' };

export function FieldPalette({ fields }: { fields: PaletteField[] }) {
  const { t } = useDT();
  const dims = fields.filter((f) => f.role === 'dimension');
  const quotas = fields.filter((f) => f.role === 'quota');
  if (!fields.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('view.pickDataset')} />;
  return (
    <div data-testid="field-palette">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('view.dimensions')}
      </Typography.Text>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 4, margin: '4px 0 12px' }}>
        {dims.map((f) => (
          <PaletteItem key={f.id} field={f} />
        ))}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('view.quotas')}
      </Typography.Text>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 4, marginTop: 4 }}>
        {quotas.map((f) => (
          <PaletteItem key={f.id} field={f} />
        ))}
      </div>
    </div>
  );
}

function PaletteItem({ field }: { field: PaletteField }) {
  const data: DragData = { kind: 'field', field };
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `field:${field.id}`, data });
  const quota = field.role === 'quota';
  const style: CSSProperties = {
    display: 'flex',
    alignItems: 'center',
    gap: 6,
    padding: '3px 8px',
    borderRadius: 4,
    fontSize: 13,
    cursor: 'grab',
    userSelect: 'none',
    touchAction: 'none',
    background: quota ? '#f6ffed' : '#e6f4ff',
    border: `1px solid ${quota ? '#b7eb8f' : '#91caff'}`,
    opacity: isDragging ? 0.5 : 1,
  };
  return (
    <div ref={setNodeRef} {...listeners} {...attributes} style={style} data-testid={`field-${field.dataeaseName}`} title={field.name}>
      <span style={{ color: '#8d97ab', fontSize: 11, width: 22, flex: 'none' }}>{TYPE_MARKS[field.type] || ''}</span>
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{field.name}</span>
    </div>
  );
}
