/**
 * A view's turn to draw its chart, from the draw queue: in the window at once, near it when it comes near,
 * else when the page is idle. Until then the view shows a chart not drawn yet, and builds nothing.
 */
import { createContext, useContext, useEffect, useState, type RefObject } from 'react';
import { scheduleDraw } from './drawQueue';

/** Inside a view whose turn came: its chart draws with the next batch, wherever it is. */
export const DrawTurn = createContext(false);

export function useTurnGiven(): boolean {
  return useContext(DrawTurn);
}

/** Whether the node's turn came; asked once `wanted` (the view has something to draw). */
export function useDrawTurn(ref: RefObject<Element | null>, wanted: boolean): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    const node = ref.current;
    if (!wanted || reached || !node) return undefined;
    return scheduleDraw(node, () => setReached(true));
  }, [wanted, reached, ref]);
  return reached;
}
