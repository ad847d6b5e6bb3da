/**
 * The palette and the canvas under one drag and drop context: a field kind dragged from the palette lands
 * where it is released (before or after the field under the pointer, or after the last one), and a field is
 * moved on the canvas with the mouse or, from its handle, with the keyboard (Space, the arrow keys, Space).
 */
import { useState } from 'react';
import {
  closestCenter,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { Tag } from 'antd';
import { Canvas, type DropMark } from './Canvas';
import { CANVAS, CANVAS_END, type CanvasField, isFullWidth, landsBefore, paletteKind } from './model';
import { Palette } from './Palette';
import { useAnnouncements, type Translate } from './announcements';

/** A drag from the palette counts from its first pixels; a click on a palette item stays a click. */
const POINTER = { activationConstraint: { distance: 4 } };

/** Palette drags land under the pointer (a field, the area after the last one, or the nearest field when
 * between fields); canvas moves go to the nearest field. */
const collisions: CollisionDetection = (args) => {
  const tiles = args.droppableContainers.filter((c) => c.id !== CANVAS && c.id !== CANVAS_END);
  if (paletteKind(args.active.id) === null) return closestCenter({ ...args, droppableContainers: tiles });
  const point = args.pointerCoordinates;
  if (!point) return [];
  const inside = (id: string | number) => {
    const rect = args.droppableRects.get(id);
    return Boolean(rect && point.x >= rect.left && point.x <= rect.right && point.y >= rect.top && point.y <= rect.bottom);
  };
  const tile = tiles.find((c) => inside(c.id));
  if (tile) return [{ id: tile.id }];
  if (inside(CANVAS_END)) return [{ id: CANVAS_END }];
  if (inside(CANVAS)) return tiles.length ? closestCenter({ ...args, droppableContainers: tiles }) : [{ id: CANVAS_END }];
  return [];
};

function pointerOf(event: DragMoveEvent): { x: number; y: number } | null {
  const start = event.activatorEvent as PointerEvent | null;
  if (!start || typeof start.clientX !== 'number') return null;
  return { x: start.clientX + event.delta.x, y: start.clientY + event.delta.y };
}

/** Where a palette drag would land now. */
function markOf(event: DragMoveEvent, fields: CanvasField[]): DropMark {
  const over = event.over;
  if (!over || paletteKind(event.active.id) === null) return null;
  if (over.id === CANVAS_END || over.id === CANVAS) return { end: true };
  const field = fields.find((f) => f.uid === over.id);
  const point = pointerOf(event);
  if (!field || !point) return null;
  return { uid: field.uid, before: landsBefore(point, over.rect, isFullWidth(field.kind)) };
}

function indexOf(mark: DropMark, fields: CanvasField[]): number {
  if (!mark || 'end' in mark) return fields.length;
  const at = fields.findIndex((f) => f.uid === mark.uid);
  return at < 0 ? fields.length : at + (mark.before ? 0 : 1);
}

export interface DragAreaProps {
  fields: CanvasField[];
  columns: number;
  selected: number | null;
  t: Translate;
  locale: string;
  /** adds a field of a kind at an index (-1: after the last field) */
  onAdd: (kind: string, index: number) => void;
  onMove: (from: number, to: number) => void;
  onSelect: (index: number) => void;
}

export function DragArea({ fields, columns, selected, t, locale, onAdd, onMove, onSelect }: DragAreaProps) {
  const sensors = useSensors(useSensor(PointerSensor, POINTER), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const [dragged, setDragged] = useState<string | null>(null);
  const [mark, setMark] = useState<DropMark>(null);
  const kindLabel = (kind: string) => t(`web.kinds.${kind}`);
  const accessibility = useAnnouncements(fields, t, locale);
  const onDragStart = (event: DragStartEvent) => setDragged(paletteKind(event.active.id));
  const onDragMove = (event: DragMoveEvent) => setMark(markOf(event, fields));
  const onDragEnd = (event: DragEndEvent) => {
    const kind = paletteKind(event.active.id);
    const landing = markOf(event, fields);
    setDragged(null);
    setMark(null);
    if (!event.over) return;
    if (kind !== null) {
      onAdd(kind, indexOf(landing, fields));
      return;
    }
    const from = fields.findIndex((f) => f.uid === event.active.id);
    const to = fields.findIndex((f) => f.uid === event.over?.id);
    if (from >= 0 && to >= 0 && from !== to) onMove(from, to);
  };
  const onDragCancel = () => { setDragged(null); setMark(null); };
  return (
    <DndContext sensors={sensors} collisionDetection={collisions} accessibility={accessibility}
      onDragStart={onDragStart} onDragMove={onDragMove} onDragOver={onDragMove} onDragEnd={onDragEnd} onDragCancel={onDragCancel}>
      <Palette label={kindLabel} onAdd={(kind) => onAdd(kind, -1)} />
      <Canvas fields={fields} columns={columns} locale={locale} selected={selected} mark={mark} kindLabel={kindLabel}
        handleLabel={t('web.canvas.move')} dropText={t('web.canvas.dropHere')} onSelect={onSelect} />
      <DragOverlay dropAnimation={null}>
        {dragged ? <Tag color="blue" style={{ padding: '4px 8px', cursor: 'grabbing' }}>+ {kindLabel(dragged)}</Tag> : null}
      </DragOverlay>
    </DndContext>
  );
}
