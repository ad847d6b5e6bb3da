/** The shell's own stylesheet (antd styles itself). Injected once. */
const CSS = `
.at-shell { height: 100vh; display: flex; flex-direction: column; background: var(--at-bg); }
.at-navbar { height: 56px; flex: 0 0 56px; display: flex; align-items: center; padding: 0 12px 0 0; gap: 4px; box-shadow: 0 1px 4px rgba(15,30,70,.08); z-index: 20; position: relative; }
.at-logo { display: flex; align-items: center; gap: 10px; height: 56px; padding: 0 16px; cursor: pointer; text-decoration: none; color: inherit; min-width: 0; }
.at-logo img { height: 30px; max-width: 120px; object-fit: contain; }
.at-logo-title { font-size: 17px; font-weight: 600; white-space: nowrap; letter-spacing: .2px; overflow: hidden; text-overflow: ellipsis; max-width: 260px; }
.at-navbar .at-spacer { flex: 1; min-width: 8px; }
.at-nav-item { height: 36px; min-width: 36px; padding: 0 8px; display: inline-flex; align-items: center; justify-content: center; gap: 6px; border-radius: 8px; cursor: pointer; color: inherit; font-size: 14px; background: transparent; border: 0; white-space: nowrap; }
.at-nav-item:hover { background: rgba(127,140,170,.16); }
.at-nav-item .anticon { font-size: 17px; }
.at-user { display: inline-flex; align-items: center; gap: 8px; padding: 0 8px; height: 40px; border-radius: 8px; cursor: pointer; }
.at-user:hover { background: rgba(127,140,170,.16); }
.at-body { flex: 1; display: flex; min-height: 0; }
.at-sider { flex: 0 0 auto; display: flex; flex-direction: column; border-right: 1px solid var(--at-border); background: var(--at-sider-bg); transition: width .2s; overflow: hidden; }
.at-sider.no-anim { transition: none; }
.at-sider-scroll { flex: 1; overflow-y: auto; overflow-x: hidden; }
.at-sider-foot { height: 44px; display: flex; align-items: center; justify-content: center; border-top: 1px solid var(--at-border); cursor: pointer; color: var(--at-muted); }
.at-sider .ant-menu { border-inline-end: 0 !important; background: transparent; }
.at-main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.at-tabs { flex: 0 0 auto; background: var(--at-panel); border-bottom: 1px solid var(--at-border); padding: 6px 12px 0; }
.at-tabs .ant-tabs-nav { margin: 0 !important; }
.at-tabs .ant-tabs-nav::before { display: none; }
.at-tabs .ant-tabs-tab { border-radius: 8px 8px 0 0 !important; padding: 5px 12px !important; }
.at-content { flex: 1; overflow: auto; position: relative; padding: 16px; }
.at-content.fullscreen { padding: 0; }
/* the way out of full screen: a small round button in the top right corner, over the page */
.at-fullscreen-exit { position: fixed; top: 12px; right: 16px; z-index: 1000; width: 36px; height: 36px; display: inline-flex; align-items: center; justify-content: center; border: 1px solid var(--at-border); border-radius: 50%; background: var(--at-panel); color: var(--at-text); box-shadow: 0 4px 14px rgba(15,30,70,.14); cursor: pointer; opacity: .7; font-size: 16px; }
.at-fullscreen-exit:hover, .at-fullscreen-exit:focus-visible { opacity: 1; }
/* the floating side toolbar has a gutter of its own: it never lies over a table's last column or a pager */
.at-content.with-toolbar { padding-right: 72px; }
/* a table wider than the page scrolls inside its own frame, so the page itself never runs under the toolbar */
.at-content .ant-table-content { overflow-x: auto; }
.at-page { background: var(--at-panel); border-radius: 10px; padding: 20px 24px; min-height: calc(100% - 4px); box-sizing: border-box; }
.at-tab-pane { height: 100%; }
.at-tab-pane[hidden] { display: none !important; }
.at-search { padding: 12px 12px 6px; }
.at-sider-collapsed .at-search { display: none; }
.at-toolbar { position: fixed; right: 16px; top: 45%; z-index: 30; display: flex; flex-direction: column; gap: 8px; }
.at-toolbar .ant-btn { box-shadow: 0 4px 14px rgba(15,30,70,.14); }
.at-center { height: 100%; display: flex; align-items: center; justify-content: center; }
.at-pop-menu { display: flex; flex-wrap: wrap; gap: 4px 16px; }
.at-pop-group { min-width: 150px; }
.at-pop-group-title { font-weight: 600; padding: 6px 8px; color: var(--at-muted); cursor: pointer; display: flex; justify-content: space-between; align-items: center; gap: 8px; }
.at-pop-link { display: block; padding: 6px 8px; border-radius: 6px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.at-pop-link:hover { background: rgba(32,75,227,.08); color: var(--at-primary); }
.at-pop-wide .at-pop-group { min-width: 160px; }
.at-sider-item { display: flex; align-items: center; gap: 10px; height: 42px; padding: 0 18px; cursor: pointer; white-space: nowrap; overflow: hidden; color: var(--at-text); }
.at-sider-item:hover, .at-sider-item.active { background: rgba(32,75,227,.08); color: var(--at-primary); }
.at-sider-item .label { overflow: hidden; text-overflow: ellipsis; flex: 1; }
.at-login { min-height: 100vh; display: flex; background: linear-gradient(135deg, var(--at-primary) 0%, #0c1f66 100%); }
.at-login-brand { flex: 1.1; color: #fff; padding: 56px 64px; display: flex; flex-direction: column; justify-content: space-between; position: relative; overflow: hidden; }
.at-login-brand h1 { font-size: 38px; line-height: 1.25; margin: 0 0 16px; font-weight: 700; }
.at-login-brand p { font-size: 16px; opacity: .82; max-width: 460px; line-height: 1.7; }
.at-login-brand .at-orb { position: absolute; border-radius: 50%; background: rgba(255,255,255,.07); }
.at-login-panel { flex: 0 0 520px; background: var(--at-panel); display: flex; align-items: center; justify-content: center; padding: 40px; box-sizing: border-box; }
.at-login-card { width: 100%; max-width: 380px; }
.at-login-card h2 { font-size: 24px; margin: 0 0 6px; }
.at-login-form-mode { display: flex; justify-content: space-between; align-items: center; gap: 12px; padding: 12px 0; margin-bottom: 16px; border-bottom: 1px solid rgba(5, 5, 5, 0.06); }
.at-captcha { height: 40px; border-radius: 6px; cursor: pointer; border: 1px solid var(--at-border); }
.at-stat-bars { display: flex; align-items: flex-end; gap: 10px; height: 150px; padding-top: 8px; }
.at-error-frame { height: 100%; display: flex; align-items: center; justify-content: center; }
.at-rightbar { flex: 0 0 52px; display: flex; flex-direction: column; align-items: center; gap: 6px; padding-top: 10px; border-left: 1px solid var(--at-border); background: var(--at-panel); color: var(--at-text); }
.at-mobile-tools { background: var(--at-panel); color: var(--at-text); border-radius: 10px; box-shadow: 0 8px 24px rgba(15,30,70,.18); padding: 8px; display: flex; flex-direction: column; align-items: flex-start; gap: 2px; }
.at-dark .ant-menu-dark { background: transparent; }
/* Accessibility (WCAG 2.1 AA). A focus ring at 3:1 on the page and the panels wherever the keyboard puts
   the focus (antd's own is its light primary border, 1.9:1); text fields keep antd's border and shadow,
   and the hidden inputs of checkboxes and radios ring their box. In the navbar the ring takes its text's
   colour, which the navbar's background is chosen for. */
:focus-visible { outline: 2px solid var(--at-focus, #204be3) !important; outline-offset: 2px; }
input:not([type=checkbox]):not([type=radio]):focus-visible, textarea:focus-visible, [contenteditable=true]:focus-visible { outline: none !important; }
.ant-checkbox:has(> .ant-checkbox-input:focus-visible), .ant-radio:has(> .ant-radio-input:focus-visible) { outline: 2px solid var(--at-focus, #204be3) !important; outline-offset: 2px; }
.at-navbar :focus-visible { outline-color: currentColor !important; }
.at-content:focus-visible, .at-sider-scroll:focus-visible { outline-offset: -2px; }
/* links in running text are told apart by more than their colour (WCAG 1.4.1) */
.at-prose a, a.at-inline-link { text-decoration: underline; text-underline-offset: 2px; }
/* the tab strip's close control, inside its tab (the tab list holds tabs only) */
.at-tab-close { display: inline-flex; align-items: center; justify-content: center; width: 16px; height: 16px; margin-inline-start: 2px; margin-inline-end: -4px; border-radius: 4px; font-size: 10px; color: inherit; cursor: pointer; opacity: .75; }
.at-tab-close:hover { background: rgba(127,140,170,.2); opacity: 1; }
@media (max-width: 991px) {
  .at-hide-mobile { display: none; }
  .at-login { flex-direction: column; }
  .at-login-brand { padding: 28px; flex: 0 0 auto; }
  .at-login-brand h1 { font-size: 26px; }
  .at-login-panel { flex: 1; padding: 24px; }
  .at-content { padding: 8px; }
  .at-content.with-toolbar { padding-right: 52px; }
  .at-page { padding: 14px; }
  .at-logo-title { max-width: 140px; font-size: 15px; }
}
`;

export function injectStyles(): void {
  if (document.getElementById('atrium-shell-css')) return;
  const style = document.createElement('style');
  style.id = 'atrium-shell-css';
  style.textContent = CSS;
  document.head.appendChild(style);
}

export function setCssVars(vars: Record<string, string>): void {
  const root = document.documentElement;
  for (const [k, v] of Object.entries(vars)) root.style.setProperty(k, v);
}
