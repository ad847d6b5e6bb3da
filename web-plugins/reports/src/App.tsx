/**
 * The reports plugin's federated module (`./App`): the report viewer under /dynamic-report, shared links
 * (/dynamic-report/link/{id}, /report/preview) and panel previews (/dynamic-report/preview/{panelId}).
 * Pages load lazily, and the chart libraries only when a chart is drawn.
 */
import { definePlugin } from '@atrium/sdk';
import { ReportsRoot, OPEN_ROUTE_PATHS } from './Root';

export { OPEN_ROUTE_PATHS };

export default definePlugin({
  name: 'reports',
  App: ReportsRoot,
});
