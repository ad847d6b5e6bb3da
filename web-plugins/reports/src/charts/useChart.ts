import { useEffect, useState } from 'react';
import { loadChart, loadedChart, type ChartEngine } from './loaders';

/** An engine's chart component: at once when its chunks are there, otherwise on the render after they arrive;
 * `null` asks for none. */
export function useChart(engine: ChartEngine | null) {
  const [failed, setFailed] = useState(false);
  const [, setTick] = useState(0);
  const component = engine ? loadedChart(engine) : undefined;
  useEffect(() => {
    if (!engine || component) return undefined;
    let alive = true;
    setFailed(false);
    loadChart(engine)
      .then(() => alive && setTick((n) => n + 1))
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
    };
  }, [engine, component]);
  return { component, failed: failed && !component };
}
