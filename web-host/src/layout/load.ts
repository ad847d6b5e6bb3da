/**
 * The signed-in shell (navbar, sidebar, tabs, the home page) is a chunk of its own, so the sign-in page
 * never downloads it. Signed-in visits and a successful sign-in start the download early, beside the
 * session's own requests, instead of after them.
 */
type LayoutModule = typeof import('./MainLayout');

let loaded: LayoutModule | undefined;

export const loadLayout = (): Promise<LayoutModule> =>
  import(/* webpackChunkName: "layout" */ './MainLayout').then((m) => (loaded = m));

/** The layout module once its download has finished: drawn directly, a lazy component would first commit
 * its fallback, and React holds back the reveal that follows a fallback by 300 ms. */
export const loadedLayout = (): LayoutModule | undefined => loaded;
