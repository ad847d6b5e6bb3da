/**
 * The form as the selected layout draws it: the fields in its columns (wide kinds across the row, as the
 * renderer places them), each moved by its handle with the mouse or the keyboard, and a drop area after
 * the last field. While a field kind is dragged from the palette, a bar marks where it will land.
 */
import type { CSSProperties } from 'react';
import { useDndContext, useDroppable } from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { Button, Tag, Typography } from 'antd';
import { CANVAS, CANVAS_END, type CanvasField, fieldName, isFullWidth, paletteKind } from './model';

/** Where a field kind dragged from the palette will land: before or after a field, or after the last one. */
export type DropMark = { uid: string; before: boolean } | { end: true } | null;

const MARK = '0 0 0 0 transparent';
const ACCENT = 'var(--ant-color-primary, #1677ff)';

function markShadow(before: boolean, wide: boolean): string {
  const size = before ? -3 : 3;
  return wide ? `inset 0 ${-size}px 0 0 ${ACCENT}` : `inset ${-size}px 0 0 0 ${ACCENT}`;
}

interface TileProps {
  field: CanvasField;
  index: number;
  locale: string;
  kindLabel: string;
  handleLabel: string;
  selected: boolean;
  mark: boolean | null;
  onSelect: (index: number) => void;
}

function Tile({ field, index, locale, kindLabel, handleLabel, selected, mark, onSelect }: TileProps) {
  const wide = isFullWidth(field.kind);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: field.uid, data: { wide } });
  const style: CSSProperties = {
    gridColumn: wide ? '1 / -1' : undefined,
    transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
    transition,
    display: 'flex',
    alignItems: 'center',
    gap: 8,
    padding: '6px 8px',
    minHeight: 40,
    background: 'var(--ant-color-bg-container, #fff)',
    border: `1px ${selected ? 'solid' : 'dashed'} ${selected ? ACCENT : 'var(--ant-color-border, #d9d9d9)'}`,
    borderRadius: 6,
    boxShadow: mark === null ? MARK : markShadow(mark, wide),
    opacity: isDragging ? 0.6 : 1,
    zIndex: isDragging ? 1 : undefined,
    position: 'relative',
    cursor: 'pointer',
  };
  const name = fieldName(field, locale);
  return (
    <div ref={setNodeRef} style={style} data-testid={`canvas-field-${index}`} data-key={field.key} onClick={() => onSelect(index)}>
      <Button size="small" type="text" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`${handleLabel} ${name}`}
        style={{ cursor: 'grab', touchAction: 'none' }} data-testid={`canvas-handle-${index}`}>⠿</Button>
      <Tag>{kindLabel}</Tag>
      <Typography.Text ellipsis style={{ flex: 1 }}>
        {field.required && field.kind !== 'section' && field.kind !== 'divider' ? <span style={{ color: 'var(--ant-color-error, #ff4d4f)' }}>* </span> : null}
        {name}
      </Typography.Text>
      <Typography.Text type="secondary">{field.key}</Typography.Text>
    </div>
  );
}

/** Whether a field kind from the palette is being dragged: the canvas and the area after its last field take
 * only those (a field moved on the canvas goes beside another field, also from the keyboard). */
function usePaletteDrag(): boolean {
  const { active } = useDndContext();
  return active !== null && paletteKind(active.id) !== null;
}

function EndArea({ text, marked }: { text: string; marked: boolean }) {
  const { setNodeRef } = useDroppable({ id: CANVAS_END, disabled: !usePaletteDrag() });
  return (
    <div ref={setNodeRef} data-testid="canvas-end" style={{
      gridColumn: '1 / -1', padding: 12, textAlign: 'center', borderRadius: 6,
      border: `1px dashed ${marked ? ACCENT : 'var(--ant-color-border, #d9d9d9)'}`,
      color: marked ? ACCENT : 'var(--ant-color-text-tertiary, #999)',
    }}>{text}</div>
  );
}

export interface CanvasProps {
  fields: CanvasField[];
  columns: number;
  locale: string;
  selected: number | null;
  mark: DropMark;
  kindLabel: (kind: string) => string;
  handleLabel: string;
  dropText: string;
  onSelect: (index: number) => void;
}

export function Canvas({ fields, columns, locale, selected, mark, kindLabel, handleLabel, dropText, onSelect }: CanvasProps) {
  const { setNodeRef } = useDroppable({ id: CANVAS, disabled: !usePaletteDrag() });
  const markFor = (uid: string) => (mark && 'uid' in mark && mark.uid === uid ? mark.before : null);
  return (
    <SortableContext items={fields.map((f) => f.uid)} strategy={rectSortingStrategy}>
      <div ref={setNodeRef} data-testid="canvas" data-columns={columns} style={{
        display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: 8, padding: 8, marginBottom: 12,
        background: 'var(--ant-color-fill-quaternary, #fafafa)', borderRadius: 8,
      }}>
        {fields.map((f, i) => (
          <Tile key={f.uid} field={f} index={i} locale={locale} kindLabel={kindLabel(f.kind)} handleLabel={handleLabel} selected={selected === i} mark={markFor(f.uid)} onSelect={onSelect} />
        ))}
        <EndArea text={dropText} marked={Boolean(mark && 'end' in mark)} />
      </div>
    </SortableContext>
  );
}
