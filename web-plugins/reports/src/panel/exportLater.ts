/** The export flow, downloaded when a person first exports: a panel opened only to be read never needs it. */
import type { exportViews as exportNow } from './exporting';

export const exportViews: typeof exportNow = async (...args) => {
  const { exportViews: run } = await import(/* webpackChunkName: "exporting" */ './exporting');
  return run(...args);
};
