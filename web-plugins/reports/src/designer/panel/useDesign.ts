/** The design being edited: its undo history, what was saved last, and the edits the page makes. */
import { useCallback, useMemo, useState } from 'react';
import type { PanelComponent, PanelStyle } from '../../model/types';
import { canRedo, canUndo, record, redo, startHistory, undo, type History } from './history';
import type { DesignState } from './types';

export interface Design {
  state: DesignState;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** One step of history; changes with the same key merge (typing in one field). */
  change: (update: (s: DesignState) => DesignState, key?: string) => void;
  setComponents: (update: (list: PanelComponent[]) => PanelComponent[], key?: string) => void;
  setStyle: (update: (style: PanelStyle) => PanelStyle, key?: string) => void;
  undo: () => void;
  redo: () => void;
  /** A fresh start (load, rollback): no history, nothing unsaved. */
  reset: (state: DesignState) => void;
  /** The given state was written to the server. */
  markSaved: (state: DesignState) => void;
}

export function useDesign(initial: DesignState): Design {
  const [history, setHistory] = useState<History<DesignState>>(() => startHistory(initial));
  const [saved, setSaved] = useState<DesignState>(initial);

  const change = useCallback((update: (s: DesignState) => DesignState, key?: string) => {
    setHistory((h) => record(h, update(h.present), key ?? null));
  }, []);
  const setComponents = useCallback(
    (update: (list: PanelComponent[]) => PanelComponent[], key?: string) =>
      change((s) => {
        const components = update(s.components);
        return components === s.components ? s : { ...s, components };
      }, key),
    [change],
  );
  const setStyle = useCallback(
    (update: (style: PanelStyle) => PanelStyle, key?: string) =>
      change((s) => {
        const style = update(s.style);
        return style === s.style ? s : { ...s, style };
      }, key),
    [change],
  );
  const reset = useCallback((state: DesignState) => {
    setHistory(startHistory(state));
    setSaved(state);
  }, []);

  return useMemo(
    () => ({
      state: history.present,
      dirty: history.present !== saved,
      canUndo: canUndo(history),
      canRedo: canRedo(history),
      change,
      setComponents,
      setStyle,
      undo: () => setHistory(undo),
      redo: () => setHistory(redo),
      reset,
      markSaved: setSaved,
    }),
    [history, saved, change, setComponents, setStyle, reset],
  );
}
