import { useEffect, useRef } from 'react';

/** An echarts chart; the chart engine is fetched when the first chart is drawn. */
export function Chart({ option, height = 260, label }: { option: Record<string, unknown>; height?: number; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let chart: { setOption: (o: unknown) => void; resize: () => void; dispose: () => void } | undefined;
    let alive = true;
    const onResize = () => chart?.resize();
    void import(/* webpackChunkName: "echarts" */ './echartsEngine').then((engine) => {
      if (!alive || !ref.current) return;
      chart = engine.init(ref.current);
      chart.setOption(option);
      window.addEventListener('resize', onResize);
    });
    return () => {
      alive = false;
      window.removeEventListener('resize', onResize);
      chart?.dispose();
    };
  }, [option]);
  return <div ref={ref} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
