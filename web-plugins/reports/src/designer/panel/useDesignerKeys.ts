/** Keyboard shortcuts: Ctrl+Z undo, Ctrl+Shift+Z (or Ctrl+Y) redo, Ctrl+S save, Delete removes the selected
 * component. Typing in a field keeps the field's own undo and Delete. */
import { useEffect, useRef } from 'react';

export interface DesignerKeys {
  undo: () => void;
  redo: () => void;
  save: () => void;
  remove: () => void;
}

const typing = (el: EventTarget | null) => el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

export function useDesignerKeys(keys: DesignerKeys): void {
  const ref = useRef(keys);
  ref.current = keys;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 's') {
        e.preventDefault();
        ref.current.save();
        return;
      }
      if (typing(e.target)) return;
      if (mod && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) ref.current.redo();
        else ref.current.undo();
      } else if (mod && key === 'y') {
        e.preventDefault();
        ref.current.redo();
      } else if (key === 'delete' || key === 'backspace') {
        ref.current.remove();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The browser asks before leaving while something is unsaved. */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return undefined;
    const onLeave = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [dirty]);
}
