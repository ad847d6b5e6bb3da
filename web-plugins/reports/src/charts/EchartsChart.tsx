import { useEffect, useMemo, useRef, useState } from 'react';
import { NO_SIZE, drawnFrom, plotSizeOf, watchPlotSize, type DrawnFrom, type PlotSize } from './plotSize';
import type { ChartData, ChartView, DimensionRef } from '../model/types';
import { buildEchartsOption, SIZED_KINDS, type BuildContext } from './echartsOptions';
import type { InspectedNode } from './inspect';
import { useTurnGiven } from './drawTurn';
import { scheduleDraw, type DrawBox } from './drawQueue';

export interface ChartClick {
  dimensionList: DimensionRef[];
  quotaList: { id: string }[];
  x: number;
  y: number;
}

export interface ChartProps {
  view: ChartView;
  data: ChartData;
  build?: BuildContext;
  onClick?: (click: ChartClick) => void;
}


/** An echarts chart; the engine chunk loads with the first one. */
export default function EchartsChart({ view, data, build, onClick }: ChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<any>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  // the size, in steps of 10 pixels (never more than it is), for what fits the card: ticks, bubbles
  const [size, setSize] = useState<PlotSize>(NO_SIZE);
  const sizedKind = SIZED_KINDS.has(view.type);
  const sized = sizedKind ? size : NO_SIZE;
  const built = useMemo(() => buildEchartsOption(view, data, { ...build, ...sized }), [view, data, build, sized]);
  const drawn = useRef<DrawnFrom | null>(null);

  const turnGiven = useTurnGiven();

  useEffect(() => {
    let alive = true;
    const node = el.current;
    if (!node) return undefined;
    if (chart.current && drawnFrom(drawn.current, { view, data, build, size: sized })) return undefined;
    node.dataset.rendered = '0';
    let cancel = () => undefined as void;
    const draw = (engine: typeof import('./engines/echarts'), box?: DrawBox) => {
      if (!alive) return;
      // a chart built for its size, not measured yet, is built for its box as measured with the others drawn beside
      // it (not a frame later, when its size observer first reports); one not laid out waits for that report
      const plot = sizedKind && sized === NO_SIZE ? plotSizeOf(box || { width: node.clientWidth, height: node.clientHeight }) : sized;
      if (!plot) return;
      const { option } = plot === sized ? built : buildEchartsOption(view, data, { ...build, ...plot });
      try {
        const first = !chart.current;
        if (!chart.current) {
          const measured = box && box.width > 0 && box.height > 0 ? { width: box.width, height: box.height } : {};
          chart.current = engine.init(node, undefined, { renderer: 'canvas', ...measured });
          // the instance on its node: browser tests find a point's pixel with convertToPixel
          (node as unknown as { __chart?: unknown }).__chart = chart.current;
          const drawn = chart.current;
          (node as InspectedNode).atriumChart = { engine: 'echarts', option: () => drawn.getOption(), texts: () => import(/* webpackChunkName: "inspect" */ './inspect').then((m) => m.echartsTexts(drawn)) };
          chart.current.on('click', (p: any) => {
            const d = p?.data || {};
            const ev = p?.event?.event as MouseEvent | undefined;
            const rect = node.getBoundingClientRect();
            clickRef.current?.({
              dimensionList: Array.isArray(d.dimensionList) ? d.dimensionList : [],
              quotaList: Array.isArray(d.quotaList) ? d.quotaList : [],
              x: ev ? ev.clientX - rect.left : rect.width / 2,
              y: ev ? ev.clientY - rect.top : rect.height / 2,
            });
          });
          chart.current.on('finished', () => {
            node.dataset.rendered = '1';
          });
        }
        // the first draw shows the chart finished at once (no pie sweep, no symbols popping in); later
        // options (filters, drill, linkage) still animate from it
        chart.current.setOption(first ? { ...option, animation: false } : option, true);
        drawn.current = { view, data, build, size: plot };
      } catch (err) {
        node.dataset.error = String((err as Error)?.message || err);
      }
      if (plot !== sized) setSize(plot);
    };
    (async () => {
      const engine = await import(/* webpackChunkName: "echarts" */ './engines/echarts');
      if (view.type === 'map') await engine.ensureMap();
      if (!alive) return;
      // a chart already drawn redraws at once (a filter, drill or linkage); a first draw waits its turn
      if (chart.current) draw(engine);
      else cancel = scheduleDraw(node, (box) => draw(engine, box), turnGiven);
    })().catch((err) => {
      node.dataset.error = String(err?.message || err);
    });
    return () => {
      alive = false;
      cancel();
    };
  }, [view, data, build, built, sized, sizedKind, turnGiven]);

  useEffect(() => {
    const node = el.current;
    if (!node) return undefined;
    const stop = watchPlotSize(node, setSize, () => {
      const c = chart.current;
      // the first notification comes with the size the chart was drawn at: no second draw for it
      // 'auto': the size given at the first draw no longer holds, the chart follows its box
      if (c && (c.getWidth() !== node.clientWidth || c.getHeight() !== node.clientHeight)) c.resize({ width: 'auto', height: 'auto' });
    });
    return () => {
      stop();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  return <div ref={el} className="rpt-chart" data-engine="echarts" data-kind={view.type} data-series={built.seriesCount} style={{ width: '100%', height: '100%' }} />;
}
