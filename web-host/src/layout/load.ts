/**
 * The signed-in shell (navbar, sidebar, tabs, the home page) is a chunk of its own, so the sign-in page
 * never downloads it. Signed-in visits and a successful sign-in start the download early, beside the
 * session's own requests, instead of after them.
 */
export const loadLayout = () => import(/* webpackChunkName: "layout" */ './MainLayout');
