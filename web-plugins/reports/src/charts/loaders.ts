/**
 * The chart chunks, each loaded once. A panel starts the echarts chunks as soon as it opens, before its data
 * calls, instead of after the first data arrives; g2plot and the map start with the first answer of a view
 * drawn by them. The chart components are handed over once loaded, without a Suspense boundary (whose reveal
 * React holds back for a moment after the data is there).
 */
import type { ComponentType } from 'react';
import type { ChartProps } from './EchartsChart';
import { TABLE_KINDS } from './tables';

export type ChartEngine = 'echarts' | 'antv';

type ChartComponent = ComponentType<ChartProps>;

const loaders: Record<ChartEngine, () => Promise<ChartComponent>> = {
  echarts: () =>
    Promise.all([
      import(/* webpackChunkName: "chart-echarts" */ './EchartsChart'),
      import(/* webpackChunkName: "echarts" */ './engines/echarts'),
    ]).then(([m]) => m.default),
  antv: () =>
    Promise.all([
      import(/* webpackChunkName: "chart-antv" */ './AntvChart'),
      import(/* webpackChunkName: "g2plot" */ './engines/g2plot'),
    ]).then(([m]) => m.default),
};

const pending: Partial<Record<ChartEngine, Promise<ChartComponent>>> = {};
const loaded: Partial<Record<ChartEngine, ChartComponent>> = {};

export function engineOf(render: string | undefined): ChartEngine {
  return render === 'antv' ? 'antv' : 'echarts';
}

/** Starts loading an engine's chunks (once); resolves to its chart component. A failed load may be retried. */
export function loadChart(engine: ChartEngine): Promise<ChartComponent> {
  let p = pending[engine];
  if (!p) {
    p = loaders[engine]().then((c) => {
      loaded[engine] = c;
      return c;
    });
    p.catch(() => {
      delete pending[engine];
    });
    pending[engine] = p;
  }
  return p;
}

/** The chart component when its chunks are already there. */
export function loadedChart(engine: ChartEngine): ChartComponent | undefined {
  return loaded[engine];
}

/** Whether a view of this type is drawn by a chart engine (not a table, a text or a label). */
export function drawsChart(type: string | undefined): boolean {
  return !!type && !(TABLE_KINDS as readonly string[]).includes(type) && !type.includes('text') && type !== 'label';
}

/** What a view will need to draw, started with its definition: its engine's chunks, and the map for a map. */
export function preloadFor(view: { render?: string; type?: string }): void {
  if (!drawsChart(view.type)) return;
  const engine = engineOf(view.render);
  loadChart(engine).catch(() => undefined);
  if (engine === 'echarts' && view.type === 'map') {
    import(/* webpackChunkName: "echarts" */ './engines/echarts').then((e) => e.ensureMap()).catch(() => undefined);
  }
}
