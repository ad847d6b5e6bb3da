import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChartData, ChartView, DimensionRef } from '../model/types';
import { buildEchartsOption, type BuildContext } from './echartsOptions';
import { echartsTexts, type InspectedNode } from './inspect';

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

const NO_SIZE: { width?: number; height?: number } = {};

/** An echarts chart; the engine chunk loads with the first one. */
export default function EchartsChart({ view, data, build, onClick }: ChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<any>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  // the size, in steps of 20 pixels, for what scales with the card (bubbles)
  const [size, setSize] = useState<{ width?: number; height?: number }>(NO_SIZE);
  const sized = view.type === 'scatter' ? size : NO_SIZE;
  const built = useMemo(() => buildEchartsOption(view, data, { ...build, ...sized }), [view, data, build, sized]);

  useEffect(() => {
    let alive = true;
    const node = el.current;
    if (!node) return undefined;
    const { option } = built;
    node.dataset.rendered = '0';
    (async () => {
      const engine = await import(/* webpackChunkName: "echarts" */ './engines/echarts');
      if (view.type === 'map') await engine.ensureMap();
      if (!alive) return;
      if (!chart.current) {
        chart.current = engine.init(node, undefined, { renderer: 'canvas' });
        // the instance on its node: browser tests find a point's pixel with convertToPixel
        (node as unknown as { __chart?: unknown }).__chart = chart.current;
        const drawn = chart.current;
        (node as InspectedNode).atriumChart = { engine: 'echarts', option: () => drawn.getOption(), texts: () => echartsTexts(drawn) };
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
      chart.current.setOption(option, true);
    })().catch((err) => {
      node.dataset.error = String(err?.message || err);
    });
    return () => {
      alive = false;
    };
  }, [view, built]);

  useEffect(() => {
    const node = el.current;
    if (!node || typeof ResizeObserver === 'undefined') return undefined;
    const step = (n: number) => Math.max(20, Math.round(n / 20) * 20);
    const measure = () => {
      const width = step(node.clientWidth);
      const height = step(node.clientHeight);
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    measure();
    const ro = new ResizeObserver(() => {
      chart.current?.resize();
      measure();
    });
    ro.observe(node);
    return () => {
      ro.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  return <div ref={el} className="rpt-chart" data-engine="echarts" data-kind={view.type} data-series={built.seriesCount} style={{ width: '100%', height: '100%' }} />;
}
