/** What a screen reader hears while a field is moved on the canvas, in the user's language. */
import { useMemo } from 'react';
import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';
import type { CanvasField } from './model';
import { fieldName, paletteKind } from './model';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export function useAnnouncements(fields: CanvasField[], t: Translate, locale: string): { announcements: Announcements; screenReaderInstructions: ScreenReaderInstructions } {
  return useMemo(() => {
    const name = (id: UniqueIdentifier) => {
      const kind = paletteKind(id);
      if (kind !== null) return t(`web.kinds.${kind}`);
      const f = fields.find((x) => x.uid === id);
      return f ? fieldName(f, locale) : String(id);
    };
    const position = (id: UniqueIdentifier | undefined) => {
      const at = fields.findIndex((f) => f.uid === id);
      return at < 0 ? fields.length : at + 1;
    };
    const total = fields.length;
    const announcements: Announcements = {
      onDragStart: ({ active }) => t('web.canvas.pickedUp', { field: name(active.id) }),
      onDragOver: ({ active, over }) => (over ? t('web.canvas.movedOver', { field: name(active.id), position: position(over.id), total }) : t('web.canvas.notOver', { field: name(active.id) })),
      onDragEnd: ({ active, over }) => (over ? t('web.canvas.dropped', { field: name(active.id), position: position(over.id), total }) : t('web.canvas.cancelled', { field: name(active.id) })),
      onDragCancel: ({ active }) => t('web.canvas.cancelled', { field: name(active.id) }),
    };
    return { announcements, screenReaderInstructions: { draggable: t('web.canvas.instructions') } };
  }, [fields, t, locale]);
}
