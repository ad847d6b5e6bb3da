/** What is dragged in the editor: a dataset field from the palette, or a chip already in a zone. */
import type { AxisZone, PaletteField, Zone } from './model';

export type DragData = { kind: 'field'; field: PaletteField } | { kind: 'chip'; zone: AxisZone; index: number };

export const zoneDropId = (zone: Zone) => `zone:${zone}`;

export function zoneOfDropId(id: string | number | undefined | null): Zone | null {
  const s = String(id ?? '');
  return s.startsWith('zone:') ? (s.slice(5) as Zone) : null;
}
