import { useEffect, useMemo, useRef, useState } from 'react';
import { NO_SIZE, drawnFrom, plotSizeOf, watchPlotSize, type DrawnFrom, type PlotSize } from './plotSize';
import { ANTV_SIZED_KINDS, buildAntvOptions } from './antvOptions';
import type { ChartProps } from './EchartsChart';
import type { InspectedNode } from './inspect';
import { useTurnGiven } from './drawTurn';
import { scheduleDraw, type DrawBox } from './drawQueue';


const TEXT_DIRECTIONS = new Set(['ltr', 'rtl', 'inherit']);

/**
 * g-canvas copies every attribute of a shape onto the canvas' 2D context before drawing it. The arrows of a paged
 * legend carry a `direction` of their own (up, down, left, right: where they point), which the context takes for
 * its text direction: Chromium rejects each with a "not a valid enum value of type CanvasDirection" warning at
 * every draw. The plot's context keeps the real text directions and lets the others pass by.
 */
export function guardTextDirection(context: CanvasRenderingContext2D | null | undefined): void {
  if (!context || Object.prototype.hasOwnProperty.call(context, 'direction')) return;
  const proto = Object.getPrototypeOf(context);
  const native = proto && Object.getOwnPropertyDescriptor(proto, 'direction');
  if (!native?.get || !native.set) return;
  Object.defineProperty(context, 'direction', {
    configurable: true,
    get() {
      return native.get!.call(this);
    },
    set(value: unknown) {
      if (TEXT_DIRECTIONS.has(value as string)) native.set!.call(this, value);
    },
  });
}

/** A g2plot chart; the engine chunk loads with the first one. */
export default function AntvChart({ view, data, build, onClick }: ChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const plot = useRef<any>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  // the size, in steps of 10 pixels (never more than it is), for what fits the card: ticks, bubbles
  const [size, setSize] = useState<PlotSize>(NO_SIZE);
  const sizedKind = ANTV_SIZED_KINDS.has(view.type);
  const sized = sizedKind ? size : NO_SIZE;
  const built = useMemo(() => buildAntvOptions(view, data, { ...build, ...sized }), [view, data, build, sized]);
  const drawn = useRef<DrawnFrom | null>(null);

  const turnGiven = useTurnGiven();

  useEffect(() => {
    let alive = true;
    const node = el.current;
    if (!node) return undefined;
    if (plot.current && drawnFrom(drawn.current, { view, data, build, size: sized })) return undefined;
    node.dataset.rendered = '0';
    let cancel = () => undefined as void;
    const draw = (engine: Record<string, any>, box?: DrawBox) => {
      if (!alive) return;
      // as in EchartsChart: a plot built for its size takes its box as measured with the others drawn beside it
      const measured = sizedKind && sized === NO_SIZE ? plotSizeOf(box || { width: node.clientWidth, height: node.clientHeight }) : sized;
      if (!measured) return;
      const { plot: name, options } = measured === sized ? built : buildAntvOptions(view, data, { ...build, ...measured });
      try {
        plot.current?.destroy();
        const Plot = engine[name];
        const p = new Plot(node, { ...options, autoFit: true, animation: false });
        guardTextDirection(p.chart?.getCanvas?.()?.get?.('context'));
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
        (node as InspectedNode).atriumChart = { engine: 'antv', option: () => p.options, texts: () => import(/* webpackChunkName: "inspect" */ './inspect').then((m) => m.g2plotTexts(p, node)) };
        node.dataset.rendered = '1';
        drawn.current = { view, data, build, size: measured };
      } catch (err) {
        node.dataset.error = String((err as Error)?.message || err);
      }
      if (measured !== sized) setSize(measured);
    };
    (async () => {
      const engine: Record<string, any> = await import(/* webpackChunkName: "g2plot" */ './engines/g2plot');
      if (!alive) return;
      // a chart already drawn redraws at once (a filter, drill or linkage); a first draw waits its turn
      if (plot.current) draw(engine);
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
    const stop = node ? watchPlotSize(node, setSize) : undefined;
    return () => {
      stop?.();
      plot.current?.destroy();
      plot.current = null;
    };
  }, []);

  return <div ref={el} className="rpt-chart" data-engine="antv" data-kind={view.type} data-series={built.seriesCount} style={{ width: '100%', height: '100%' }} />;
}
