/**
 * The ops plugin's federated module (`./App`): the monitoring screen at /actuator-management (nodes,
 * readiness, task queue, storage) and the scheduling screen at /schedule (scheduled jobs, background tasks).
 */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';

const MonitorPage = lazy(() => import('./pages/Monitor').then((m) => ({ default: m.Monitor })));
const SchedulePage = lazy(() => import('./pages/Schedule').then((m) => ({ default: m.Schedule })));

function Monitor() {
  return <Suspense fallback={<Spin />}><MonitorPage /></Suspense>;
}

function Schedule() {
  return <Suspense fallback={<Spin />}><SchedulePage /></Suspense>;
}

export default definePlugin({
  name: 'ops',
  routes: [
    { path: '/actuator-management/*', Component: Monitor },
    { path: '/schedule/*', Component: Schedule },
  ],
});
