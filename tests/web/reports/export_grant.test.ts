import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import '../shims';
import { ShellContext, permissions, type ShellApi } from '../../../sdk/web/src/index';
import { EXPORT_BUTTON, useExportGranted } from '../../../web-plugins/reports/src/panel/exportGrant';

function Probe() {
  return createElement('span', null, useExportGranted() ? 'export' : 'none');
}

/** What the viewer decides inside the shell on `menuId` (or, with `shell` false, on an open page). */
function decided(menuId: string | undefined, shell = true): string {
  const value = {
    manifest: shell ? { services: {}, plugins: [] } : null,
    currentMenu: menuId ? { menuId, menuName: 'Dynamic reports' } : undefined,
  } as unknown as ShellApi;
  return renderToStaticMarkup(createElement(ShellContext.Provider, { value }, createElement(Probe)));
}

test('the viewer offers export only where the page menu grants the export button', () => {
  permissions.superAdmin = false;
  permissions.set('40', [{ resourceCode: EXPORT_BUTTON }]);
  permissions.set('41', [{ resourceCode: 'dyreport:manage' }]);
  assert.equal(decided('40'), '<span>export</span>');
  assert.equal(decided('41'), '<span>none</span>');
  assert.equal(decided(undefined), '<span>none</span>');
});

test('super administrators see the export button on any menu', () => {
  permissions.superAdmin = true;
  assert.equal(decided('41'), '<span>export</span>');
  permissions.superAdmin = false;
});

test('a shared link, opened outside the shell, leaves the decision to the panel privileges', () => {
  permissions.superAdmin = false;
  assert.equal(decided(undefined, false), '<span>export</span>');
  permissions.clear();
});
