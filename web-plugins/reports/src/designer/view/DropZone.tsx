/** A drop zone of the view (dimensions, quotas, ...) with its chips. */
import { useDroppable } from '@dnd-kit/core';
import type { ReactNode } from 'react';
import { useDT } from '../data/i18n';
import { zoneDropId } from './dnd';
import type { Zone } from './model';

export function DropZone({ zone, accepts, children, empty }: { zone: Zone; accepts: boolean | null; children: ReactNode; empty: boolean }) {
  const { t } = useDT();
  const { setNodeRef, isOver } = useDroppable({ id: zoneDropId(zone) });
  // while dragging: green where the item may go, grey where it may not
  const border = accepts === null ? '#d9d9d9' : accepts ? (isOver ? '#52c41a' : '#95de64') : '#f0f0f0';
  return (
    <div style={{ marginBottom: 8 }}>
      <div style={{ fontSize: 12, color: '#6b7489', marginBottom: 2 }}>{t(`view.zones.${zone}`)}</div>
      <div
        ref={setNodeRef}
        data-testid={`zone-${zone}`}
        data-over={isOver ? 'true' : undefined}
        style={{
          minHeight: 34,
          padding: 4,
          display: 'flex',
          flexWrap: 'wrap',
          gap: 4,
          alignItems: 'center',
          border: `1px dashed ${border}`,
          borderRadius: 6,
          background: isOver && accepts ? '#f6ffed' : '#fafafa',
        }}
      >
        {empty ? <span style={{ color: '#bfbfbf', fontSize: 12, padding: '0 4px' }}>{t('view.dropHere')}</span> : children}
      </div>
    </div>
  );
}
