/** The echarts engine, in its own chunk: only the charts and components the viewer draws. */
// echarts' `use` registers the parts it draws with (not a React hook): imported under a name that says so
import { init, use as registerParts, registerMap, type EChartsType } from 'echarts/core';
import { BarChart, LineChart, PieChart, FunnelChart, RadarChart, GaugeChart, ScatterChart, TreemapChart, MapChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, LegendComponent, VisualMapComponent, GeoComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { MAP_NAME } from '../echartsOptions';

registerParts([
  BarChart, LineChart, PieChart, FunnelChart, RadarChart, GaugeChart, ScatterChart, TreemapChart, MapChart,
  GridComponent, TooltipComponent, LegendComponent, VisualMapComponent, GeoComponent, CanvasRenderer,
]);

let mapReady: Promise<void> | null = null;

/** The map file ships with the plugin (src/maps/china.json) and loads with the first map chart. */
export function ensureMap(): Promise<void> {
  if (!mapReady) {
    mapReady = import(/* webpackChunkName: "map-china" */ '../../maps/china.json').then((m) => {
      registerMap(MAP_NAME, ((m as { default?: unknown }).default ?? m) as any);
    });
    mapReady.catch(() => {
      mapReady = null;
    });
  }
  return mapReady;
}

export { init, type EChartsType };
