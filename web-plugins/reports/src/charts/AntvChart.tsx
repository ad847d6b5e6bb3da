import { useEffect, useMemo, useRef } from 'react';
import { buildAntvOptions } from './antvOptions';
import type { ChartProps } from './EchartsChart';
import { g2plotTexts, type InspectedNode } from './inspect';
import { scheduleDraw } from './drawQueue';

/** A g2plot chart; the engine chunk loads with the first one. */
export default function AntvChart({ view, data, build, onClick }: ChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<any>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  const built = useMemo(() => buildAntvOptions(view, data, build), [view, data, build]);

  useEffect(() => {
    let alive = true;
    const node = el.current;
    if (!node) return undefined;
    const { plot: name, options } = built;
    node.dataset.rendered = '0';
    let cancel = () => undefined as void;
    const draw = (engine: Record<string, any>) => {
      if (!alive) return;
      try {
        plot.current?.destroy();
        const Plot = engine[name];
        const p = new Plot(node, { ...options, autoFit: true, animation: false });
        p.on('element:click', (ev: any) => {
          const d = ev?.data?.data || {};
          const rect = node.getBoundingClientRect();
          const e = ev?.gEvent?.originalEvent as MouseEvent | undefined;
          clickRef.current?.({
            dimensionList: Array.isArray(d.dimensionList) ? d.dimensionList : [],
            quotaList: Array.isArray(d.quotaList) ? d.quotaList : [],
            x: e ? e.clientX - rect.left : ev?.x ?? rect.width / 2,
            y: e ? e.clientY - rect.top : ev?.y ?? rect.height / 2,
          });
        });
        p.render();
        plot.current = p;
        (node as unknown as { __plot?: unknown }).__plot = p;
        (node as InspectedNode).atriumChart = { engine: 'antv', option: () => p.options, texts: () => g2plotTexts(p, node) };
        node.dataset.rendered = '1';
      } catch (err) {
        node.dataset.error = String((err as Error)?.message || err);
      }
    };
    (async () => {
      const engine: Record<string, any> = await import(/* webpackChunkName: "g2plot" */ './engines/g2plot');
      if (!alive) return;
      // a chart already drawn redraws at once (a filter, drill or linkage); a first draw waits its turn
      if (plot.current) draw(engine);
      else cancel = scheduleDraw(node, () => draw(engine));
    })().catch((err) => {
      node.dataset.error = String(err?.message || err);
    });
    return () => {
      alive = false;
      cancel();
    };
  }, [view, built]);

  useEffect(() => () => {
    plot.current?.destroy();
    plot.current = null;
  }, []);

  return <div ref={el} className="rpt-chart" data-engine="antv" data-kind={view.type} data-series={built.seriesCount} style={{ width: '100%', height: '100%' }} />;
}
