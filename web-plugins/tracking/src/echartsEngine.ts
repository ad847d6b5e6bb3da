/** The echarts the home cards draw with, in a chunk of its own: bar and line charts with their grid,
 * tooltip and legend, not the whole library. */
// echarts' `use` registers the parts it draws with (not a React hook): imported under a name that says so
import { init, use as registerParts } from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

registerParts([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { init };
