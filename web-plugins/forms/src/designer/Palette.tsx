/**
 * The field kinds an author drags onto the canvas. Each is also a button: a click (or Enter and Space from
 * the keyboard) adds the kind after the last field, to be moved on the canvas from there.
 */
import { useDraggable } from '@dnd-kit/core';
import { Button } from 'antd';
import { KINDS } from '../design';
import { paletteId } from './model';

const PALETTE_STYLE = { display: 'flex', flexWrap: 'wrap' as const, gap: 8, marginBottom: 12 };

function PaletteItem({ kind, label, onAdd }: { kind: string; label: string; onAdd: (kind: string) => void }) {
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: paletteId(kind), data: { kind } });
  // the keyboard adds with a click; only the pointer drags from the palette
  const { onKeyDown: _keyboardDrag, ...pointer } = listeners ?? {};
  return (
    <span ref={setNodeRef} {...pointer} data-testid={`palette-${kind}`} style={{ touchAction: 'none', opacity: isDragging ? 0.5 : 1 }}>
      <Button size="small" onClick={() => onAdd(kind)} data-testid={`add-${kind}`} style={{ cursor: 'grab' }}>
        + {label}
      </Button>
    </span>
  );
}

export function Palette({ label, onAdd }: { label: (kind: string) => string; onAdd: (kind: string) => void }) {
  return (
    <div style={PALETTE_STYLE} data-testid="palette">
      {KINDS.map((k) => <PaletteItem key={k} kind={k} label={label(k)} onAdd={onAdd} />)}
    </div>
  );
}
