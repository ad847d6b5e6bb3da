/**
 * The designer canvas's model: fields carry a stable id for dragging (their keys may be edited or repeated
 * while typing), new fields get a key not yet taken, and a drop inserts or moves a field at a position.
 */
import { type FieldDraft, newField } from '../design';
import { FULL_WIDTH } from '../schemaInfo';

/** A field on the canvas: its draft and an id that stays while it is dragged and edited. */
export type CanvasField = FieldDraft & { uid: string };

/** The id of the canvas's drop area after its last field (also the area of an empty canvas). */
export const CANVAS_END = 'canvas-end';
/** The id of the canvas as a whole (a drop between fields lands beside the nearest one). */
export const CANVAS = 'canvas';
const PALETTE_PREFIX = 'palette:';

let counter = 0;
export function nextUid(): string {
  counter += 1;
  return `f${counter}`;
}

export function withUid(draft: FieldDraft): CanvasField {
  return { ...draft, uid: nextUid() };
}

export function paletteId(kind: string): string {
  return `${PALETTE_PREFIX}${kind}`;
}

/** The field kind a palette item's drag id stands for, or null for anything else. */
export function paletteKind(id: string | number): string | null {
  const text = String(id);
  return text.startsWith(PALETTE_PREFIX) ? text.slice(PALETTE_PREFIX.length) : null;
}

/** A new field of a kind named `<kind><n>`, n the field's number in the form, or the next one free. */
export function createField(kind: string, fields: FieldDraft[], label: string, uid: string): CanvasField {
  const taken = new Set(fields.map((f) => f.key));
  let n = fields.length + 1;
  while (taken.has(`${kind}${n}`)) n += 1;
  return { ...newField(kind, n, label), uid };
}

/** The items with one more at an index (a negative index: after the last one). */
export function insertAt<T>(items: T[], index: number, item: T): T[] {
  const at = index < 0 ? items.length : Math.min(items.length, index);
  return [...items.slice(0, at), item, ...items.slice(at)];
}

/** A field's name in a language: its label there, else its label, else its key. */
export function fieldName(field: FieldDraft, locale: string): string {
  return (field.labels[locale] || '').trim() || field.label || field.key;
}

/** Whether a field takes the whole row of the layout, as the renderer draws it. */
export function isFullWidth(kind: string): boolean {
  return FULL_WIDTH.has(kind);
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Whether a point lands before a field's box: above it, or on its first half (left, or top for a field as
 * wide as the row). */
export function landsBefore(point: { x: number; y: number }, box: Box, fullWidth: boolean): boolean {
  if (point.y < box.top) return true;
  if (point.y > box.top + box.height) return false;
  return fullWidth ? point.y < box.top + box.height / 2 : point.x < box.left + box.width / 2;
}
